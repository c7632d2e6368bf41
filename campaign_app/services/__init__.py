"""Use cases. Each public function validates its input, owns one transaction (``db.atomic()``), calls the
rules and returns a small value describing what changed. The GUI and the CLI call these; neither touches
peewee directly."""
