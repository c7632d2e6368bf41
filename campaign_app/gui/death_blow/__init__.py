"""The d12 Death Blow screens: the campaign page's fighters, a fighter's page, the bout dialogs."""
