"""pypdf checks shared by the sheet and report tests: pages, page size, text, embedded fonts."""

from __future__ import annotations

import io
from typing import Any

from pypdf import PdfReader
from pypdf.generic import DictionaryObject

A4 = (595.28, 841.89)
LETTER = (612.0, 792.0)


def reader(pdf: bytes) -> PdfReader:
    assert pdf.startswith(b"%PDF-"), "not a PDF"
    return PdfReader(io.BytesIO(pdf))


def page_sizes(pdf: bytes) -> list[tuple[float, float]]:
    return [(round(float(p.mediabox.width), 2), round(float(p.mediabox.height), 2)) for p in reader(pdf).pages]


def assert_paper(pdf: bytes, size: tuple[float, float]) -> None:
    for w, h in page_sizes(pdf):
        assert abs(w - size[0]) < 1 and abs(h - size[1]) < 1, (w, h, size)


def page_texts(pdf: bytes) -> list[str]:
    return [" ".join(p.extract_text().split()) for p in reader(pdf).pages]


def text(pdf: bytes) -> str:
    return " ".join(page_texts(pdf))


def _fonts(resources: Any, found: dict[str, bool]) -> None:
    if resources is None:
        return
    resources = resources.get_object()
    fonts = resources.get("/Font")
    if fonts is not None:
        for _key, ref in fonts.get_object().items():
            font = ref.get_object()
            name = str(font.get("/BaseFont"))
            targets = [font]
            if font.get("/Subtype") == "/Type0":
                targets = [d.get_object() for d in font["/DescendantFonts"]]
            embedded = True
            for target in targets:
                desc = target.get("/FontDescriptor")
                desc = desc.get_object() if desc is not None else DictionaryObject()
                embedded &= any(k in desc for k in ("/FontFile", "/FontFile2", "/FontFile3"))
            found[name] = embedded
    xobjects = resources.get("/XObject")
    if xobjects is not None:
        for _key, ref in xobjects.get_object().items():
            xobj = ref.get_object()
            if xobj.get("/Subtype") == "/Form":
                _fonts(xobj.get("/Resources"), found)


def fonts(pdf: bytes) -> dict[str, bool]:
    """Every font the pages use -> whether its file is embedded."""
    found: dict[str, bool] = {}
    for page in reader(pdf).pages:
        _fonts(page.get("/Resources"), found)
    return found


def assert_fonts_embedded(pdf: bytes) -> None:
    found = fonts(pdf)
    assert found, "no fonts at all"
    missing = [name for name, embedded in found.items() if not embedded]
    assert not missing, f"fonts not embedded: {missing}"
    assert all("DejaVu" in name for name in found), found
