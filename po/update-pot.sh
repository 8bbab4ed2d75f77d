#!/usr/bin/env bash
# Extracts the translatable strings into po/cubeful.pot and merges them into every po/<lang>.po.
# Rust is read as C (xgettext 0.21 has no Rust parser; the string literals used are C-compatible);
# the .ui templates as GtkBuilder files. Our placeholders are `{}`, never C formats, so a `%` in
# a string ("{}% match winning chance") is not taken for one. Needs gettext (xgettext, msgmerge).
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(grep -v '^#' po/POTFILES.in | grep -v '^$')
rs=() ui=()
for f in "${files[@]}"; do
    case "$f" in
        *.rs) rs+=("$f") ;;
        *.ui) ui+=("$f") ;;
    esac
done
xgettext --from-code=UTF-8 --language=C --no-wrap --sort-by-file \
    --keyword=gettext --keyword=gettext_f --keyword=ngettext:1,2 --keyword=ngettext_f:1,2 \
    --flag=gettext:1:no-c-format --flag=gettext_f:1:no-c-format \
    --flag=ngettext:1:no-c-format --flag=ngettext:2:no-c-format \
    --flag=ngettext_f:1:no-c-format --flag=ngettext_f:2:no-c-format \
    --package-name=cubeful --msgid-bugs-address= --add-comments=TRANSLATORS \
    -o po/cubeful-rs.pot "${rs[@]}" 2> >(grep -v 'warning: unterminated' >&2 || true)
xgettext --from-code=UTF-8 --language=Glade --no-wrap --sort-by-file \
    --package-name=cubeful --msgid-bugs-address= \
    -o po/cubeful-ui.pot "${ui[@]}"
msgcat --no-wrap --use-first -o po/cubeful.pot po/cubeful-rs.pot po/cubeful-ui.pot
rm po/cubeful-rs.pot po/cubeful-ui.pot
sed -i 's/^"Content-Type: text\/plain; charset=CHARSET\\n"$/"Content-Type: text\/plain; charset=UTF-8\\n"/' po/cubeful.pot
while read -r lang; do
    case "$lang" in ''|'#'*) continue ;; esac
    msgmerge --quiet --no-wrap --update --backup=none "po/$lang.po" po/cubeful.pot
done < po/LINGUAS
