"""Sologear (RULES.md §2): a lone Gear pilot's campaign, one module per procedure.

Every table of §2 lives once, as data, in the module of the procedure that reads it; the engine, the odds, the
GUI's help and the printed play-aid cards all read those same objects.

* :mod:`.forces`: force strength and the odds band (2.1), campaign-length dice count.
* :mod:`.combat`: the battle-turn tables (2.2: postures, actions, combat table, enemy quality, entry edges).
* :mod:`.steps`: the step-wise procedure machinery (ask for one roll, feed its faces, run from a dice source).
* :mod:`.turn`: campaign length and battle-turn procedures, the ferocious break-out and why a campaign ends.
* :mod:`.reckoning`: recognition, impression, noticed, rewards and punishments (2.3) and the end procedure.
* :mod:`.odds`: exact chances of a turn and of the reckoning, read from those tables.
* :mod:`.table_text`: the tables as rows of strings for cards, sheets and help.
"""
