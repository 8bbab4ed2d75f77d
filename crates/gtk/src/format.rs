//! Numbers and percentages as the user's locale writes them: the decimal separator is the one
//! of the numeric locale (`LC_NUMERIC`, set from the environment by [`crate::i18n::init`]), so
//! a German desktop shows "0,523" and "52,3 %" where an English one shows "0.523" and "52.3%".
//!
//! Rust's `format!` always writes a point; these functions write the number with `format!` and
//! then put the locale's separator in its place. Minus zero ("-0.000") is written without its
//! sign, as a user expects.

use std::sync::OnceLock;

use crate::i18n::gettext_f;

/// `value` with `decimals` digits after the locale's decimal separator ("-0.041", "0,523").
pub fn number(value: f64, decimals: usize) -> String {
    number_with(value, decimals, decimal_separator())
}

/// `value`, a fraction (0.523 for 52.3 %), as a percentage with `decimals` digits after the
/// locale's decimal separator and the percent sign placed as the translation says
/// ("52.3%", "52,3 %").
pub fn percent(value: f64, decimals: usize) -> String {
    // TRANSLATORS: a percentage; {} is the number ("52.3"). German writes "{} %".
    gettext_f("{}%", &[&number(value * 100.0, decimals)])
}

/// `value` with `decimals` digits after `separator`; minus zero loses its sign, and a value
/// that is not a number is written as "–".
pub fn number_with(value: f64, decimals: usize, separator: &str) -> String {
    if !value.is_finite() {
        return "–".to_string();
    }
    let mut text = format!("{value:.decimals$}");
    if text.starts_with('-') && text[1..].chars().all(|c| c == '0' || c == '.') {
        text.remove(0);
    }
    if separator != "." {
        text = text.replacen('.', separator, 1);
    }
    text
}

/// The decimal separator of the numeric locale ("." when it cannot be read). Read once: the
/// locale is set at the start of `main` and never changes afterwards.
pub fn decimal_separator() -> &'static str {
    static SEPARATOR: OnceLock<String> = OnceLock::new();
    SEPARATOR.get_or_init(read_decimal_separator)
}

fn read_decimal_separator() -> String {
    // SAFETY: `localeconv` returns a pointer to a static structure that only `setlocale` or
    // another `localeconv` call change; the locale is set once at the start of `main` before
    // any thread exists, and the string is copied out at once.
    let separator = unsafe {
        let conv = libc::localeconv();
        if conv.is_null() || (*conv).decimal_point.is_null() {
            None
        } else {
            std::ffi::CStr::from_ptr((*conv).decimal_point)
                .to_str()
                .ok()
                .map(str::to_string)
        }
    };
    separator
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| ".".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_take_the_separator_they_are_given() {
        assert_eq!(number_with(0.5234, 3, "."), "0.523");
        assert_eq!(number_with(0.5234, 3, ","), "0,523");
        assert_eq!(number_with(-1.25, 1, ","), "-1,2");
        assert_eq!(number_with(12.0, 0, ","), "12");
        assert_eq!(number_with(-0.0001, 3, "."), "0.000");
        assert_eq!(number_with(-0.0, 2, ","), "0,00");
        assert_eq!(number_with(f64::NAN, 2, "."), "–");
        assert_eq!(number_with(-3.5, 2, "."), "-3.50");
    }

    #[test]
    fn the_c_locale_writes_a_point() {
        // Tests run without `setlocale`: the C locale.
        assert_eq!(decimal_separator(), ".");
        assert_eq!(number(0.0412, 3), "0.041");
        assert_eq!(percent(0.5234, 1), "52.3%");
        assert_eq!(percent(1.0, 0), "100%");
    }
}
