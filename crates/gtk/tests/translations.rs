//! The translations are complete: every string marked for translation in the sources (the
//! `gettext*` calls in Rust, the `translatable="yes"` texts of the `.ui` files) is in the
//! template `po/cubeful.pot` (so it is up to date) and has a German translation in `po/de.po`
//! with the same `{}` placeholders. Run `po/update-pot.sh` after changing strings.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Reads a C-style string literal starting at `s[0] == '"'`; returns it and the rest.
fn literal(s: &str) -> Option<(String, &str)> {
    let mut chars = s.strip_prefix('"')?.char_indices();
    let mut out = String::new();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return Some((out, &s[i + 2..])),
            '\\' => match chars.next()?.1 {
                'n' => out.push('\n'),
                't' => out.push('\t'),
                other => out.push(other),
            },
            c => out.push(c),
        }
    }
    None
}

/// The msgids (and plural msgids) used in a Rust file.
fn rust_strings(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for call in ["gettext(", "gettext_f(", "ngettext(", "ngettext_f("] {
        let mut rest = text;
        while let Some(i) = rest.find(call) {
            // `ngettext(` is not a `gettext(` call (it is looked for on its own); calls
            // without a literal (the definitions in i18n.rs) are skipped below.
            let preceded = rest[..i].chars().last();
            rest = &rest[i + call.len()..];
            if preceded.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                continue;
            }
            let Some((first, after)) = literal(rest.trim_start()) else {
                continue;
            };
            found.push(first);
            if call.starts_with('n') {
                let after = after.trim_start().strip_prefix(',').unwrap_or(after);
                if let Some((plural, _)) = literal(after.trim_start()) {
                    found.push(plural);
                }
            }
        }
    }
    found
}

/// The translatable texts of a `.ui` file.
fn ui_strings(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find("translatable=\"yes\"") {
        rest = &rest[i..];
        let start = rest.find('>').expect("tag closes") + 1;
        let end = rest[start..].find("</").expect("element closes") + start;
        found.push(
            rest[start..end]
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&quot;", "\"")
                .replace("&amp;", "&"),
        );
        rest = &rest[end..];
    }
    found
}

/// msgid → msgstrs of a .po or .pot file (written without line wrapping).
fn po_entries(path: &Path) -> HashMap<String, Vec<String>> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut entries = HashMap::new();
    let mut ids: Vec<String> = Vec::new();
    let mut strs: Vec<String> = Vec::new();
    let mut flush = |ids: &mut Vec<String>, strs: &mut Vec<String>| {
        for id in ids.drain(..) {
            entries.insert(id, strs.clone());
        }
        strs.clear();
    };
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with("msgid ") {
            flush(&mut ids, &mut strs);
        }
        let value = |prefix: &str| {
            literal(line[prefix.len()..].trim_start())
                .map(|(s, _)| s)
                .unwrap_or_default()
        };
        if line.starts_with("msgid_plural ") {
            ids.push(value("msgid_plural"));
        } else if line.starts_with("msgid ") {
            ids.push(value("msgid"));
        } else if line.starts_with("msgstr") {
            let at = line.find('"').unwrap_or(line.len());
            strs.push(literal(&line[at..]).map(|(s, _)| s).unwrap_or_default());
        } else if line.starts_with('"') {
            // A continuation line: belongs to the last string.
            let more = literal(line).map(|(s, _)| s).unwrap_or_default();
            if let Some(last) = strs.last_mut() {
                last.push_str(&more);
            } else if let Some(last) = ids.last_mut() {
                last.push_str(&more);
            }
        }
    }
    flush(&mut ids, &mut strs);
    entries
}

fn source_strings() -> Vec<(String, String)> {
    let potfiles = std::fs::read_to_string(root().join("po/POTFILES.in")).unwrap();
    let mut all = Vec::new();
    for file in potfiles
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        let text = std::fs::read_to_string(root().join(file))
            .unwrap_or_else(|e| panic!("{file} (listed in po/POTFILES.in): {e}"));
        let strings = if file.ends_with(".ui") {
            ui_strings(&text)
        } else {
            rust_strings(&text)
        };
        all.extend(strings.into_iter().map(|s| (file.to_string(), s)));
    }
    all
}

#[test]
fn every_source_file_with_strings_is_listed() {
    let potfiles = std::fs::read_to_string(root().join("po/POTFILES.in")).unwrap();
    let mut missing = Vec::new();
    let mut stack = vec![root().join("crates/gtk/src"), root().join("resources")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            let has = match path.extension().and_then(|e| e.to_str()) {
                Some("rs") => !rust_strings(&text).is_empty() && !path.ends_with("i18n.rs"),
                Some("ui") => !ui_strings(&text).is_empty(),
                _ => false,
            };
            let relative = path
                .strip_prefix(root())
                .unwrap_or(&path)
                .to_string_lossy()
                .replace("crates/gtk/../../", "");
            if has
                && !potfiles
                    .lines()
                    .any(|l| relative.ends_with(l.trim()) && !l.trim().is_empty())
            {
                missing.push(relative);
            }
        }
    }
    assert!(missing.is_empty(), "add to po/POTFILES.in: {missing:?}");
}

#[test]
fn template_is_up_to_date_and_german_is_complete() {
    let pot = po_entries(&root().join("po/cubeful.pot"));
    let de = po_entries(&root().join("po/de.po"));
    let placeholders = |s: &str| s.matches("{}").count();
    let mut problems = Vec::new();
    let strings = source_strings();
    assert!(strings.len() > 150, "only {} strings found", strings.len());
    for (file, id) in strings {
        if !pot.contains_key(&id) {
            problems.push(format!(
                "{file}: {id:?} is not in po/cubeful.pot (run po/update-pot.sh)"
            ));
            continue;
        }
        match de.get(&id) {
            None => problems.push(format!("{file}: {id:?} is not in po/de.po")),
            Some(translations) => {
                for t in translations {
                    if t.is_empty() {
                        problems.push(format!("{file}: {id:?} has no German translation"));
                    } else if placeholders(t) != placeholders(&id) {
                        problems.push(format!("{file}: {id:?} → {t:?} has other placeholders"));
                    }
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_parsers_work() {
    assert_eq!(
        rust_strings("x = gettext_f(\n \"A {} \\\"b\\\"\", &[a]); ngettext(\"one\", \"many\", n)"),
        vec!["A {} \"b\"", "one", "many"]
    );
    assert_eq!(
        ui_strings("<property name=\"label\" translatable=\"yes\">Drag &amp; drop</property>"),
        vec!["Drag & drop"]
    );
}
