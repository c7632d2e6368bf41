"""Names of the card sizes and papers, without loading reportlab: the CLI's parser and the print dialog list
them before anything is printed. The names and measures live once, in :mod:`campaign_app.printing.sizes`
(no reportlab either); this module keeps the short names other code imports."""

from .sizes import CARD_SIZES, DEFAULT_SIZE, SHEET_PAPERS

CARD_SIZE_NAMES: tuple[str, ...] = tuple(CARD_SIZES)
DEFAULT_CARD_SIZE = DEFAULT_SIZE
PAPER_NAMES: tuple[str, ...] = SHEET_PAPERS
