"""The d12 Death Blow screens (issue 26): the campaign page's fighters, a fighter's page, the bout dialogs."""
