//! The parsed content of a match equity table file, and GNU Backgammon's XML format (`met.dtd`).

use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;

use super::{Located, TableKind};
use crate::game::match_state::Player;

// ---------------------------------------------------------------------------------------------
// The parsed content of a file, before the tables are built.

/// Which player a post-Crawford table is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum PostPlayer {
    Both,
    One(Player),
}

#[derive(Clone, Debug)]
pub(super) struct TableSpec {
    pub(super) kind: TableKind,
    pub(super) rows: Vec<Vec<f64>>,
    pub(super) params: Vec<(String, f64)>,
    pub(super) player: PostPlayer,
    /// Byte offset of the table's start, for errors found while building.
    pub(super) pos: usize,
}

#[derive(Clone, Debug, Default)]
pub(super) struct Document {
    pub(super) name: Option<String>,
    pub(super) description: Option<String>,
    pub(super) source: Option<String>,
    /// Declared length and its offset.
    pub(super) length: Option<(i64, usize)>,
    pub(super) pre: Option<TableSpec>,
    pub(super) posts: Vec<TableSpec>,
    /// Offset of the root element (for errors about missing parts).
    pub(super) root: usize,
}

// ---------------------------------------------------------------------------------------------
// GNU Backgammon XML.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tag {
    Met,
    Info,
    Name,
    Description,
    Length,
    Pre,
    Post,
    Row,
    Me,
    Parameters,
    Parameter,
}

impl Tag {
    fn from_name(name: &[u8]) -> Option<Tag> {
        Some(match name {
            b"met" => Tag::Met,
            b"info" => Tag::Info,
            b"name" => Tag::Name,
            b"description" => Tag::Description,
            b"length" => Tag::Length,
            b"pre-crawford-table" => Tag::Pre,
            b"post-crawford-table" => Tag::Post,
            b"row" => Tag::Row,
            b"me" => Tag::Me,
            b"parameters" => Tag::Parameters,
            b"parameter" => Tag::Parameter,
            _ => return None,
        })
    }

    fn name(self) -> &'static str {
        match self {
            Tag::Met => "met",
            Tag::Info => "info",
            Tag::Name => "name",
            Tag::Description => "description",
            Tag::Length => "length",
            Tag::Pre => "pre-crawford-table",
            Tag::Post => "post-crawford-table",
            Tag::Row => "row",
            Tag::Me => "me",
            Tag::Parameters => "parameters",
            Tag::Parameter => "parameter",
        }
    }

    /// Elements allowed directly inside `parent` (`None`: the document itself).
    fn allowed_in(self, parent: Option<Tag>) -> bool {
        matches!(
            (parent, self),
            (None, Tag::Met)
                | (Some(Tag::Met), Tag::Info | Tag::Pre | Tag::Post)
                | (Some(Tag::Info), Tag::Name | Tag::Description | Tag::Length)
                | (Some(Tag::Pre | Tag::Post), Tag::Row | Tag::Parameters)
                | (Some(Tag::Row), Tag::Me)
                | (Some(Tag::Parameters), Tag::Parameter)
        )
    }

    fn has_text(self) -> bool {
        matches!(
            self,
            Tag::Name | Tag::Description | Tag::Length | Tag::Me | Tag::Parameter
        )
    }
}

/// Reading state of the XML walk.
#[derive(Default)]
struct XmlState {
    doc: Document,
    stack: Vec<Tag>,
    seen_root: bool,
    text: String,
    table: Option<TableSpec>,
    row: Vec<f64>,
    param_name: Option<String>,
}

fn attributes(e: &BytesStart<'_>, pos: usize) -> Result<Vec<(String, String)>, Located> {
    let mut out = Vec::new();
    for attr in e.attributes() {
        let attr = attr.map_err(|err| (pos, format!("bad attribute: {err}")))?;
        let key = String::from_utf8_lossy(attr.key.as_ref()).into_owned();
        let value = attr
            .unescape_value()
            .map_err(|err| (pos, format!("bad value of attribute {key}: {err}")))?
            .into_owned();
        out.push((key, value));
    }
    Ok(out)
}

pub(super) fn parse_number(text: &str, what: &str, pos: usize) -> Result<f64, Located> {
    let t = text.trim();
    // Plain decimal numbers only (no "inf", "nan", hexadecimal or signs other than '-', '+').
    let plain = !t.is_empty()
        && t.bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'-' | b'+' | b'e' | b'E'));
    match t.parse::<f64>() {
        Ok(v) if plain && v.is_finite() => Ok(v),
        _ => Err((pos, format!("{what} is not a number: {t:?}"))),
    }
}

pub(super) fn parse_probability(text: &str, what: &str, pos: usize) -> Result<f64, Located> {
    let v = parse_number(text, what, pos)?;
    if (0.0..=1.0).contains(&v) {
        Ok(v)
    } else {
        Err((pos, format!("{what} {v} is outside [0, 1]")))
    }
}

impl XmlState {
    fn start(&mut self, e: &BytesStart<'_>, pos: usize) -> Result<(), Located> {
        let raw = e.name();
        let parent = self.stack.last().copied();
        let tag = Tag::from_name(raw.as_ref()).ok_or_else(|| {
            let name = String::from_utf8_lossy(raw.as_ref()).into_owned();
            match parent {
                Some(p) => (
                    pos,
                    format!("unexpected element <{name}> inside <{}>", p.name()),
                ),
                None => (pos, format!("the root element must be <met>, not <{name}>")),
            }
        })?;
        if !tag.allowed_in(parent) {
            return Err(match parent {
                Some(p) => (
                    pos,
                    format!(
                        "element <{}> is not allowed inside <{}>",
                        tag.name(),
                        p.name()
                    ),
                ),
                None => (
                    pos,
                    format!("the root element must be <met>, not <{}>", tag.name()),
                ),
            });
        }
        let doc = &mut self.doc;
        match tag {
            Tag::Met => {
                if self.seen_root {
                    return Err((pos, "a second root element".to_string()));
                }
                self.seen_root = true;
                doc.root = pos;
            }
            Tag::Info => {
                if doc.name.is_some() || doc.length.is_some() || doc.pre.is_some() {
                    return Err((pos, "<info> must come first, once".to_string()));
                }
            }
            Tag::Name | Tag::Description | Tag::Length => {
                let dup = match tag {
                    Tag::Name => doc.name.is_some(),
                    Tag::Description => doc.description.is_some(),
                    _ => doc.length.is_some(),
                };
                if dup {
                    return Err((pos, format!("<{}> given twice", tag.name())));
                }
            }
            Tag::Pre | Tag::Post => {
                if doc.name.is_none() && doc.length.is_none() {
                    return Err((pos, format!("<{}> before <info>", tag.name())));
                }
                if tag == Tag::Pre && (doc.pre.is_some() || !doc.posts.is_empty()) {
                    return Err((
                        pos,
                        "<pre-crawford-table> must come once, before the post-Crawford tables"
                            .to_string(),
                    ));
                }
                if tag == Tag::Post && doc.pre.is_none() {
                    return Err((
                        pos,
                        "<post-crawford-table> before <pre-crawford-table>".to_string(),
                    ));
                }
                let mut kind = TableKind::Explicit;
                let mut player = PostPlayer::Both;
                for (key, value) in attributes(e, pos)? {
                    match key.as_str() {
                        "type" => {
                            kind = TableKind::from_attr(&value).ok_or_else(|| {
                                (pos, format!("unknown table type {value:?} (expected explicit, zadeh or mec)"))
                            })?;
                        }
                        "player" if tag == Tag::Post => {
                            player = match value.as_str() {
                                "both" => PostPlayer::Both,
                                "0" => PostPlayer::One(Player::Zero),
                                "1" => PostPlayer::One(Player::One),
                                _ => {
                                    return Err((
                                        pos,
                                        format!("unknown player {value:?} (expected both, 0 or 1)"),
                                    ))
                                }
                            };
                        }
                        _ => {}
                    }
                }
                self.table = Some(TableSpec {
                    kind,
                    rows: Vec::new(),
                    params: Vec::new(),
                    player,
                    pos,
                });
            }
            Tag::Row => {
                let table = self
                    .table
                    .as_ref()
                    .ok_or((pos, "<row> outside a table".to_string()))?;
                if table.kind != TableKind::Explicit {
                    return Err((
                        pos,
                        format!("<row> in a table of type {}", table.kind.name()),
                    ));
                }
                if parent == Some(Tag::Post) && !table.rows.is_empty() {
                    return Err((pos, "a post-Crawford table has a single <row>".to_string()));
                }
                self.row.clear();
            }
            Tag::Parameters => {
                let table = self
                    .table
                    .as_ref()
                    .ok_or((pos, "<parameters> outside a table".to_string()))?;
                if table.kind == TableKind::Explicit {
                    return Err((pos, "<parameters> in an explicit table".to_string()));
                }
                if !table.params.is_empty() || !table.rows.is_empty() {
                    return Err((pos, "<parameters> given twice".to_string()));
                }
            }
            Tag::Parameter => {
                let name = attributes(e, pos)?
                    .into_iter()
                    .find(|(k, _)| k == "name")
                    .map(|(_, v)| v)
                    .ok_or((pos, "<parameter> without a name attribute".to_string()))?;
                self.param_name = Some(name);
            }
            Tag::Me => {}
        }
        self.text.clear();
        self.stack.push(tag);
        Ok(())
    }

    fn text(&mut self, content: &str, pos: usize) -> Result<(), Located> {
        match self.stack.last() {
            Some(tag) if tag.has_text() => {
                self.text.push_str(content);
                Ok(())
            }
            _ if content.trim().is_empty() => Ok(()),
            Some(tag) => Err((pos, format!("unexpected text inside <{}>", tag.name()))),
            None => Err((pos, "text outside the root element".to_string())),
        }
    }

    fn end(&mut self, pos: usize) -> Result<(), Located> {
        let tag = self
            .stack
            .pop()
            .ok_or((pos, "unbalanced end tag".to_string()))?;
        let text = std::mem::take(&mut self.text);
        let doc = &mut self.doc;
        match tag {
            Tag::Name => doc.name = Some(text.trim().to_string()),
            Tag::Description => doc.description = Some(text.trim().to_string()),
            Tag::Length => {
                let t = text.trim();
                let n = t
                    .parse::<i64>()
                    .map_err(|_| (pos, format!("<length> is not an integer: {t:?}")))?;
                doc.length = Some((n, pos));
            }
            Tag::Me => {
                let v = parse_probability(&text, "match equity", pos)?;
                self.row.push(v);
            }
            Tag::Row => {
                let row = std::mem::take(&mut self.row);
                if let Some(table) = self.table.as_mut() {
                    table.rows.push(row);
                }
            }
            Tag::Parameter => {
                let name = self.param_name.take().unwrap_or_default();
                let v = parse_number(&text, &format!("parameter {name}"), pos)?;
                if let Some(table) = self.table.as_mut() {
                    table.params.push((name, v));
                }
            }
            Tag::Pre | Tag::Post => {
                let table = self
                    .table
                    .take()
                    .ok_or((pos, "table state lost".to_string()))?;
                if tag == Tag::Pre {
                    doc.pre = Some(table);
                } else {
                    doc.posts.push(table);
                }
            }
            Tag::Met | Tag::Info | Tag::Parameters => {}
        }
        Ok(())
    }
}

pub(super) fn parse_xml(text: &str) -> Result<Document, Located> {
    let mut reader = Reader::from_str(text);
    reader.config_mut().trim_text(true);
    let mut state = XmlState::default();
    loop {
        let pos = usize::try_from(reader.buffer_position()).unwrap_or(usize::MAX);
        let event = reader.read_event().map_err(|e| {
            let at = usize::try_from(reader.error_position()).unwrap_or(pos);
            (at, format!("XML error: {e}"))
        })?;
        match event {
            Event::Start(e) => state.start(&e, pos)?,
            Event::Empty(e) => {
                state.start(&e, pos)?;
                state.end(pos)?;
            }
            Event::End(_) => state.end(pos)?,
            Event::Text(t) => {
                let content = t.unescape().map_err(|e| (pos, format!("XML error: {e}")))?;
                state.text(&content, pos)?;
            }
            Event::CData(t) => {
                let content = String::from_utf8_lossy(&t).into_owned();
                state.text(&content, pos)?;
            }
            Event::Decl(_) | Event::PI(_) | Event::Comment(_) | Event::DocType(_) => {}
            Event::Eof => break,
        }
    }
    if let Some(tag) = state.stack.last() {
        return Err((
            text.len(),
            format!("the document ends inside <{}>", tag.name()),
        ));
    }
    if !state.seen_root {
        return Err((0, "no <met> element".to_string()));
    }
    Ok(state.doc)
}
