"""``python -m campaign_app`` starts the GUI (``python -m campaign_app.cli`` is the headless CLI)."""

import sys

from .app import main

sys.exit(main())
