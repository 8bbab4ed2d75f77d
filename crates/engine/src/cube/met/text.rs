//! Cubeful's own text format for match equity tables (`data/met/*.met`).

use super::xml::{parse_probability, Document, PostPlayer, TableSpec};
use super::{build, Located, MatchEquityTable, TableKind, MAX_AWAY, TEXT_MAGIC};
use crate::game::match_state::Player;

// ---------------------------------------------------------------------------------------------
// Cubeful's text format.

pub(super) fn parse_text(text: &str) -> Result<MatchEquityTable, Located> {
    enum Section {
        Header,
        Pre,
        Post,
    }
    let mut doc = Document::default();
    let mut section = Section::Header;
    let mut seen_magic = false;
    let mut offset = 0;
    for raw in text.split_inclusive('\n') {
        let pos = offset;
        offset += raw.len();
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if !seen_magic {
            if line != TEXT_MAGIC {
                return Err((pos, format!("the first line must be {TEXT_MAGIC:?}")));
            }
            seen_magic = true;
            doc.root = pos;
            continue;
        }
        if let Some(inner) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            let words: Vec<&str> = inner.split_whitespace().collect();
            section = match words.as_slice() {
                ["pre-crawford"] => {
                    if doc.pre.is_some() || !doc.posts.is_empty() {
                        return Err((
                            pos,
                            "[pre-crawford] must come once, before the post-Crawford tables"
                                .to_string(),
                        ));
                    }
                    doc.pre = Some(TableSpec {
                        kind: TableKind::Explicit,
                        rows: Vec::new(),
                        params: Vec::new(),
                        player: PostPlayer::Both,
                        pos,
                    });
                    Section::Pre
                }
                ["post-crawford", who] => {
                    if doc.pre.is_none() {
                        return Err((
                            pos,
                            "a post-Crawford table before [pre-crawford]".to_string(),
                        ));
                    }
                    let player = match *who {
                        "both" => PostPlayer::Both,
                        "0" => PostPlayer::One(Player::Zero),
                        "1" => PostPlayer::One(Player::One),
                        _ => {
                            return Err((
                                pos,
                                format!("unknown player {who:?} (expected both, 0 or 1)"),
                            ))
                        }
                    };
                    doc.posts.push(TableSpec {
                        kind: TableKind::Explicit,
                        rows: Vec::new(),
                        params: Vec::new(),
                        player,
                        pos,
                    });
                    Section::Post
                }
                _ => return Err((pos, format!("unknown section [{inner}]"))),
            };
            continue;
        }
        match section {
            Section::Header => {
                let (key, value) = line
                    .split_once('=')
                    .ok_or((pos, "expected `key = value`".to_string()))?;
                let (key, value) = (key.trim(), value.trim().to_string());
                let slot = match key {
                    "name" => &mut doc.name,
                    "description" => &mut doc.description,
                    "source" => &mut doc.source,
                    "length" => {
                        if doc.length.is_some() {
                            return Err((pos, "length given twice".to_string()));
                        }
                        let n = value
                            .parse::<i64>()
                            .map_err(|_| (pos, format!("length is not an integer: {value:?}")))?;
                        doc.length = Some((n, pos));
                        continue;
                    }
                    _ => return Err((pos, format!("unknown key {key:?}"))),
                };
                if slot.is_some() {
                    return Err((pos, format!("{key} given twice")));
                }
                *slot = Some(value);
            }
            Section::Pre | Section::Post => {
                let row = line
                    .split_whitespace()
                    .map(|w| parse_probability(w, "match equity", pos))
                    .collect::<Result<Vec<f64>, _>>()?;
                let table = match section {
                    Section::Pre => doc.pre.as_mut(),
                    _ => doc.posts.last_mut(),
                }
                .ok_or((pos, "numbers outside a table".to_string()))?;
                if matches!(section, Section::Post) && !table.rows.is_empty() {
                    return Err((pos, "a post-Crawford table has a single line".to_string()));
                }
                table.rows.push(row);
            }
        }
    }
    if !seen_magic {
        return Err((0, format!("the first line must be {TEXT_MAGIC:?}")));
    }
    match doc.length {
        Some((n, pos)) if !(1..=MAX_AWAY as i64).contains(&n) => {
            return Err((pos, format!("length {n} is outside 1..={MAX_AWAY}")))
        }
        None => return Err((text.len(), "no length given".to_string())),
        _ => {}
    }
    build(doc)
}
