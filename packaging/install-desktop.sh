#!/bin/sh
# Adds Campaign App to your desktop's application menu: a menu entry (.desktop file) that starts the
# campaign-app program in this folder, and the app's icon, both under ~/.local/share.
# Run it again if you move this folder; "./install-desktop --uninstall" removes the entry and the icon.
case "$0" in
  */*) here=${0%/*} ;;
  *) here=. ;;
esac
here=$(cd "$here" && pwd -P) || exit 1
exec "$here/campaign-cli" install-desktop "$@"
