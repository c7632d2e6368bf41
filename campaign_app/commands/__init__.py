"""Sub-command groups of ``campaign-cli``. Each module has ``register(subparsers, parent)``; handlers take
``(args, ctx)`` and return an exit status. ``campaign_app.cli`` builds the parser from ``COMMAND_MODULES``."""

COMMAND_MODULES = (
    "campaign_app.commands.rules_aa",
    "campaign_app.commands.roster",
    "campaign_app.commands.battle",
    "campaign_app.commands.sologear",
    "campaign_app.commands.printing",
    "campaign_app.commands.backup",
    "campaign_app.commands.desktop",
)
