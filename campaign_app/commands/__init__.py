"""Sub-command groups of ``campaign-cli``. Each module has ``register(subparsers, parent)``; handlers take
``(args, ctx)`` and return an exit status. ``campaign_app.cli`` builds the parser from ``COMMAND_MODULES``."""

COMMAND_MODULES = (
    "campaign_app.commands.rules_aa",
    "campaign_app.commands.roster",
    "campaign_app.commands.battle",
    "campaign_app.commands.sologear",
    "campaign_app.commands.death_blow",
    "campaign_app.commands.printing",
    "campaign_app.commands.backup",
    "campaign_app.commands.desktop",
    "campaign_app.commands.journal",
    "campaign_app.commands.club",
    "campaign_app.commands.overview",
)

COMMAND_NAMES: dict[str, tuple[str, ...]] = {
    "campaign_app.commands.rules_aa": ("level", "cards", "odds", "roll"),
    "campaign_app.commands.roster": ("campaign", "platoon", "leader", "attached", "equipment"),
    "campaign_app.commands.battle": ("battle", "history"),
    "campaign_app.commands.sologear": ("sologear",),
    "campaign_app.commands.death_blow": ("fighter", "bout"),
    "campaign_app.commands.printing": ("print",),
    "campaign_app.commands.backup": ("backup", "restore", "export", "import"),
    "campaign_app.commands.desktop": ("install-desktop",),
    "campaign_app.commands.journal": ("journal", "undo", "redo"),
    "campaign_app.commands.club": ("server",),
    "campaign_app.commands.overview": ("chronicle",),
}
"""The top-level commands each module registers. ``campaign_app.cli`` loads only the module of the command
given, for a fast start; a command missing here still works (every module is loaded then).
``tests/cli/test_cli_start.py`` checks that this list matches what the modules register."""
