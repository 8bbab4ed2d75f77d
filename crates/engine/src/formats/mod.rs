//! Text and file formats: identifiers, move notation, FIBS boards, the ASCII board, match files
//! (GNU Backgammon's SGF, Jellyfish `.mat`, plain-text export) and telling them apart.

pub mod ascii_board;
pub mod fibs;
pub mod ids;
pub mod mat;
pub mod match_file;
pub mod notation;
pub mod sgf;
pub mod text;

/// How many characters of user input an error message shows (escapes included).
pub const QUOTE_CHARS: usize = 60;

/// User input as an error message shows it: control characters (NUL, newlines, DEL…) escaped
/// so that the message stays on one line, cut with `…` once [`QUOTE_CHARS`] characters are
/// shown (an escape counts as the characters it takes). No quotes around it: see [`quote`].
///
/// ```
/// use cubeful_engine::formats::shorten;
///
/// assert_eq!(shorten("a\0b\n"), "a\\0b\\n");
/// assert_eq!(shorten(&"x".repeat(100)), format!("{}…", "x".repeat(60)));
/// ```
pub fn shorten(text: &str) -> String {
    escape(text, false)
}

/// User input quoted for an error message: [`shorten`]ed and in double quotes, with a `"` or
/// `\` inside escaped.
///
/// ```
/// use cubeful_engine::formats::quote;
///
/// assert_eq!(quote("4HPw"), "\"4HPw\"");
/// assert_eq!(quote("a\"b\u{7f}"), "\"a\\\"b\\u{7f}\"");
/// assert!(quote(&"A".repeat(100_000)).chars().count() < 70);
/// ```
pub fn quote(text: &str) -> String {
    format!("\"{}\"", escape(text, true))
}

fn escape(text: &str, quoted: bool) -> String {
    let mut out = String::new();
    let mut shown = 0;
    for c in text.chars() {
        if shown >= QUOTE_CHARS {
            out.push('…');
            break;
        }
        let before = out.len();
        match c {
            '\0' => out.push_str("\\0"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '"' | '\\' if quoted => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() || breaks_lines(c) => {
                out.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
            }
            c => out.push(c),
        }
        shown += out[before..].chars().count();
    }
    out
}

/// Characters that are not control characters but break or reorder a line on a terminal.
fn breaks_lines(c: char) -> bool {
    matches!(c, '\u{2028}' | '\u{2029}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting_escapes_and_cuts() {
        assert_eq!(quote(""), "\"\"");
        assert_eq!(quote("abc"), "\"abc\"");
        assert_eq!(quote("\0\n\r\t\u{7f}\u{1b}"), r#""\0\n\r\t\u{7f}\u{1b}""#);
        assert_eq!(quote("a\"b\\c"), r#""a\"b\\c""#);
        assert_eq!(shorten("a\"b\\c"), r#"a"b\c"#);
        assert_eq!(quote("line\u{2028}sep"), r#""line\u{2028}sep""#);
        // 60 characters pass whole, 61 are cut.
        let sixty = "é".repeat(60);
        assert_eq!(quote(&sixty), format!("\"{sixty}\""));
        assert_eq!(quote(&format!("{sixty}x")), format!("\"{sixty}…\""));
        let long = quote(&"\0".repeat(100_000));
        assert_eq!(long, format!("\"{}…\"", "\\0".repeat(30)));
        let long = quote(&"\u{1}".repeat(100_000));
        assert!(long.len() < 80, "{long}");
        assert!(!long.contains('\0') && !long.contains('\n'));
    }
}
