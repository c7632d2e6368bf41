"""``campaign-cli install-desktop``: the Linux menu entry and icon, shipped with the package."""

from __future__ import annotations

import configparser
import json
from pathlib import Path


def test_install_desktop_writes_entry_and_icon_and_uninstall_removes_them(cli, tmp_path: Path):
    target = tmp_path / "share"
    out = cli("install-desktop", "--target", str(target), "--json")
    written = [Path(p) for p in json.loads(out)["installed"]]
    entry = target / "applications" / "campaign-app.desktop"
    icon = target / "icons" / "hicolor" / "scalable" / "apps" / "campaign-app.svg"
    assert written == [entry, icon]
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read(entry, encoding="utf-8")
    section = parser["Desktop Entry"]
    assert section["Type"] == "Application" and section["Icon"] == "campaign-app"
    assert section["Name"] == "Campaign App" and section["Terminal"] == "false"
    exec_line = section["Exec"]
    assert "campaign-app" in exec_line or "-m campaign_app" in exec_line
    assert icon.read_text(encoding="utf-8").lstrip().startswith("<svg")
    # again: replaced, not duplicated
    cli("install-desktop", "--target", str(target))
    assert sorted(p.name for p in (target / "applications").iterdir()) == ["campaign-app.desktop"]
    out = cli("install-desktop", "--target", str(target), "--uninstall")
    assert "removed" in out and not entry.exists() and not icon.exists()
    assert "nothing to remove" in cli("install-desktop", "--target", str(target), "--uninstall")


def test_install_desktop_defaults_to_xdg_data_home(cli, tmp_path: Path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    cli("install-desktop")
    assert (tmp_path / "xdg" / "applications" / "campaign-app.desktop").is_file()


def test_exec_line_quotes_a_path_with_spaces():
    from campaign_app.desktop import _quote, desktop_entry_text

    assert _quote("/opt/my apps/campaign-app") == '"/opt/my apps/campaign-app"'
    assert 'Exec="/opt/my apps/campaign-app"' in desktop_entry_text(_quote("/opt/my apps/campaign-app"))
