//! Translations: every user-visible string goes through GNU gettext (the `cubeful` domain).
//!
//! Rust's `format!` needs literal format strings, which a translation is not, so
//! [`gettext_f`] and [`ngettext_f`] replace each `{}` in the translated text by the next
//! argument. `po/update-pot.sh` extracts the strings marked with these functions (and the
//! `translatable="yes"` properties of the `.ui` templates) into `po/cubeful.pot`.

use std::path::Path;

/// The gettext domain.
pub const DOMAIN: &str = "cubeful";

/// Translates `msgid`. Without a catalogue (tests, the C locale) it is returned unchanged.
pub fn gettext(msgid: &str) -> String {
    gettextrs::gettext(msgid)
}

/// Translates `singular`/`plural` for `n`.
pub fn ngettext(singular: &str, plural: &str, n: u32) -> String {
    gettextrs::ngettext(singular, plural, n)
}

/// Translates `format` and replaces its `{}` placeholders by `args`, in order.
pub fn gettext_f(format: &str, args: &[&str]) -> String {
    fill(&gettext(format), args)
}

/// [`ngettext`] with `{}` placeholders, like [`gettext_f`].
pub fn ngettext_f(singular: &str, plural: &str, n: u32, args: &[&str]) -> String {
    fill(&ngettext(singular, plural, n), args)
}

/// Replaces each `{}` in `text` by the next of `args`; extra placeholders stay as they are.
pub fn fill(text: &str, args: &[&str]) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    let mut rest = text;
    let mut args = args.iter();
    while let Some(i) = rest.find("{}") {
        out.push_str(&rest[..i]);
        match args.next() {
            Some(a) => out.push_str(a),
            None => out.push_str("{}"),
        }
        rest = &rest[i + 2..];
    }
    out.push_str(rest);
    out
}

/// Sets the locale from the environment and binds the `cubeful` domain to `locale_dir`.
/// Must run first thing in `main`, before any thread starts. Failures only mean English.
pub fn init(locale_dir: &Path) {
    // SAFETY: called at the start of `main`, before any other thread exists.
    unsafe {
        gettextrs::setlocale(gettextrs::LocaleCategory::LcAll, "");
    }
    let _ = gettextrs::bindtextdomain(DOMAIN, locale_dir);
    let _ = gettextrs::bind_textdomain_codeset(DOMAIN, "UTF-8");
    let _ = gettextrs::textdomain(DOMAIN);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders() {
        assert_eq!(fill("{} of {}", &["3", "7"]), "3 of 7");
        assert_eq!(fill("{} and {}", &["a"]), "a and {}");
        assert_eq!(fill("none", &["x"]), "none");
        assert_eq!(gettext_f("Pips {}", &["12"]), "Pips 12");
    }
}
