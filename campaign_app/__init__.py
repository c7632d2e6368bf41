"""campaign_app: a desktop campaign tracker for tabletop wargamers."""

__version__ = "0.1.0"
APP_NAME = "campaign_app"
APP_TITLE = "Campaign App"
