"""Pure game rules: dice, tables, Atomic Africa campaign rules, Sologear. No Qt, no database, no I/O."""
