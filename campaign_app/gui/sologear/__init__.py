"""The Sologear page, split by use: :mod:`.page` (the page: loading a sheet, the state line, writes and
dialogs), :mod:`.sheet_tab` (the campaign sheet: header, both sides' forces, live odds, the length roll),
:mod:`.forces` (one side's unit table and entry row), :mod:`.turns_tab` (the battle form: playing, recording
and undoing turns), :mod:`.end_tab` (the reckoning), :mod:`.record_tabs` (the history and the optional
rules) and :mod:`.tables` (the read-only table model and formatting they share)."""
