"""The module name ``commands.printing.PRINT_MODULES`` imports: it registers ``print sheet``, ``print
sologear`` and ``print history`` (defined in :mod:`campaign_app.commands.print_sheets`)."""

from . import print_sheets  # noqa: F401 - importing registers the sub-commands
