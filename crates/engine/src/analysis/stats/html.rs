//! The statistics as a self-contained HTML page: the match header, the statistics table of both
//! players (the rows of GNU Backgammon's report) and the list of marked actions. The page has
//! its style sheet inline (light and dark, following `prefers-color-scheme`), loads nothing and
//! runs no script; every text from the record is escaped.

use std::fmt::Write as _;

use super::report::{sections, ReportStyle};
use super::{MarkKind, MatchStatistics};
use crate::game::record::MatchInfo;

/// `text` escaped for HTML text and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

const STYLE: &str = "\
:root { color-scheme: light dark; --bg: #ffffff; --fg: #1d1d1f; --muted: #6b6b70; \
--line: #d8d8dc; --head: #f2f2f5; --doubtful: #9a6700; --bad: #c2410c; --very-bad: #b91c1c; }
@media (prefers-color-scheme: dark) { :root { --bg: #1c1c1e; --fg: #ececf0; --muted: #a0a0a8; \
--line: #3a3a3e; --head: #2a2a2e; --doubtful: #e3b341; --bad: #f0883e; --very-bad: #f87171; } }
body { background: var(--bg); color: var(--fg); font: 15px/1.45 system-ui, sans-serif; \
margin: 2rem auto; max-width: 60rem; padding: 0 1rem; }
h1 { font-size: 1.5rem; margin-bottom: 0.25rem; }
h2 { font-size: 1.15rem; margin-top: 2rem; }
p.meta { color: var(--muted); margin-top: 0; }
table { border-collapse: collapse; width: 100%; }
th, td { border-bottom: 1px solid var(--line); padding: 0.3rem 0.6rem; text-align: left; }
thead th { background: var(--head); }
th.section { background: var(--head); font-weight: 600; padding-top: 0.8rem; }
td.num { font-variant-numeric: tabular-nums; text-align: right; white-space: pre; }
.doubtful { color: var(--doubtful); }
.bad { color: var(--bad); }
.very-bad { color: var(--very-bad); font-weight: 600; }
";

/// The page. `info` gives the header (players, length, event, date); `style` the rating names.
pub fn page(info: &MatchInfo, stats: &MatchStatistics, style: &ReportStyle) -> String {
    let names = [escape(&stats.players[0]), escape(&stats.players[1])];
    let mut out = String::new();
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    out.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    let _ = writeln!(
        out,
        "<title>{} – {}: statistics</title>",
        names[0], names[1]
    );
    let _ = writeln!(out, "<style>\n{STYLE}</style>\n</head>\n<body>");
    let _ = writeln!(out, "<h1>{} – {}</h1>", names[0], names[1]);
    let mut meta = vec![if stats.match_length == 0 {
        "Money session".to_string()
    } else {
        format!("{}-point match", stats.match_length)
    }];
    if let Some(score) = final_score(stats) {
        meta.push(format!("final score {}–{}", score[0], score[1]));
    }
    meta.push(format!(
        "{} game{}",
        stats.games.len(),
        if stats.games.len() == 1 { "" } else { "s" }
    ));
    for item in [&info.event, &info.round, &info.place, &info.date]
        .into_iter()
        .flatten()
    {
        meta.push(escape(item));
    }
    let _ = writeln!(out, "<p class=\"meta\">{}</p>", meta.join(" · "));

    out.push_str("<h2>Statistics</h2>\n<table>\n");
    let _ = writeln!(
        out,
        "<thead><tr><th>Player</th><th>{}</th><th>{}</th></tr></thead>\n<tbody>",
        names[0], names[1]
    );
    for section in sections(stats, style) {
        let _ = writeln!(
            out,
            "<tr><th class=\"section\" colspan=\"3\">{}</th></tr>",
            escape(section.title)
        );
        for row in &section.rows {
            let _ = writeln!(
                out,
                "<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td></tr>",
                escape(&row.label),
                escape(row.values[0].trim()),
                escape(row.values[1].trim())
            );
        }
    }
    out.push_str("</tbody>\n</table>\n");

    out.push_str("<h2>Marked actions</h2>\n");
    if stats.marked.is_empty() {
        out.push_str("<p>No action is marked.</p>\n");
    } else {
        out.push_str(
            "<table>\n<thead><tr><th>Game</th><th>Move</th><th>Player</th><th>Roll</th>\
             <th>Played</th><th>Best</th><th>Error</th><th>Mark</th></tr></thead>\n<tbody>\n",
        );
        for m in &stats.marked {
            let played = match (m.kind, m.played.is_empty()) {
                (MarkKind::Checker, true) => "(no move)".to_string(),
                _ => m.played.clone(),
            };
            let class = m.mark.replace(' ', "-");
            let _ = writeln!(
                out,
                "<tr><td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td><td>{}</td>\
                 <td>{}</td><td>{}</td><td class=\"num\">{:+.3}</td><td class=\"{}\">{}</td></tr>",
                m.game,
                m.action,
                names[m.player.min(1)],
                escape(m.dice.as_deref().unwrap_or("")),
                escape(&played),
                escape(&m.best),
                m.error,
                escape(&class),
                escape(m.mark)
            );
        }
        out.push_str("</tbody>\n</table>\n");
    }
    out.push_str("</body>\n</html>\n");
    out
}

/// The score after the last game, when it ended.
fn final_score(stats: &MatchStatistics) -> Option<[u32; 2]> {
    let last = stats.games.last()?;
    let mut score = last.score.map(u32::from);
    if let Some((winner, points)) = last.result {
        score[winner.min(1)] += points;
    }
    Some(score)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup() {
        assert_eq!(
            escape("<b>\"Tom\" & 'Jerry'</b>"),
            "&lt;b&gt;&quot;Tom&quot; &amp; &#39;Jerry&#39;&lt;/b&gt;"
        );
        assert_eq!(escape("Kévin"), "Kévin");
    }
}
