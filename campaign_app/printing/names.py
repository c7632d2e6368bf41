"""Names of the card sizes and papers, without loading reportlab: the CLI's parser and the print dialog list
them before anything is printed. ``printing.cards.CARD_SIZES`` and ``printing.paper.PAPER_SIZES`` hold the
measures under the same names (a test keeps the two in step)."""

CARD_SIZE_NAMES: tuple[str, ...] = ("poker", "tarot", "index", "a6")
DEFAULT_CARD_SIZE = "poker"
PAPER_NAMES: tuple[str, ...] = ("a4", "letter")
