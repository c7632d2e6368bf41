"""The PySide6 desktop GUI. Only this package (and campaign_app.app) imports Qt."""
