//! The generic layer of SGF (Smart Game Format): text ⇄ a tree of nodes and properties.
//!
//! This module knows SGF syntax only; it does not know what any property means. A backgammon
//! reader (GNU Backgammon's `GM[6]` dialect) sits on top of it and interprets the properties.
//!
//! # Syntax accepted by [`parse`]
//!
//! ```text
//! Collection = { GameTree }
//! GameTree   = "(" Node { Node } { GameTree } ")"
//! Node       = ";" { Property }
//! Property   = Ident Value { Value }
//! Ident      = letter { letter }           (ASCII letters)
//! Value      = "[" text "]"
//! ```
//!
//! * Whitespace between tokens is ignored, and so is a byte order mark at the very start.
//! * Identifiers are normally upper-case (`FF`, `GM`, `PW`); lower-case letters are accepted and
//!   kept as written (`GaMe`), because SGF FF\[3] allowed such long names and old files use them.
//!   [`Node::get`] ignores lower-case letters when it compares identifiers, as FF\[4] readers are
//!   told to (GNU Backgammon's reader does the same).
//! * In a value, `\` escapes the next character (`\]` is `]`, `\\` is `\`) and a `\` followed by
//!   a line break (`\n`, `\r\n`, `\n\r` or `\r`) is a soft line break and is removed. Every other
//!   character, line breaks included, is kept exactly. Values are stored unescaped; this layer
//!   does not split compose values (`a:b`) or interpret types.
//! * Properties keep their order, and a property repeated in a node is kept twice.
//!
//! The empty text is an empty collection. Anything else that breaks the syntax is an
//! [`SgfError`] with the 1-based line and column where the problem was found.
//!
//! # Robustness
//!
//! [`parse`] never panics and runs in time linear in the length of the text. It works with an
//! explicit stack rather than recursion, and game trees nested deeper than [`MAX_NESTING_DEPTH`]
//! are rejected, so that the result can also be dropped, compared, cloned and written without
//! exhausting the call stack. Nothing else is limited.
//!
//! # Writing
//!
//! [`write()`] lays the text out the way GNU Backgammon does: the root node right after the `(`,
//! every further node on a line of its own starting with `;`, the `)` right after the last
//! property, and a line break after each top-level game tree. Variations start on a new line with
//! `(`. Only `]` and `\` are escaped. For every collection [`parse`] returns,
//! `parse(&write(&c)) == Ok(c)`.
//!
//! # Encodings
//!
//! SGF files are bytes; [`decode`] turns them into text: UTF-8 when they are valid UTF-8,
//! otherwise the single-byte charset named by the root node's `CA` property (ISO-8859-1,
//! ISO-8859-15 or Windows-1252), and Latin-1 for any other charset or none.

use std::fmt;

/// How deeply game trees may be nested: a top-level game tree is at depth 1, a variation inside
/// it at depth 2, and so on. Deeper nesting is reported as [`SgfErrorKind::NestingTooDeep`].
///
/// The derived `Clone`, `PartialEq`, `Debug` and `Drop` of [`GameTree`] recurse once per level;
/// unoptimised, `clone` needs up to about 1 KB of stack per level, so this limit keeps every
/// operation on a parsed collection well inside a 2 MB thread stack. Real files nest far less:
/// GNU Backgammon writes no variations at all.
pub const MAX_NESTING_DEPTH: usize = 1_000;

/// A whole SGF file: a sequence of game trees. GNU Backgammon writes one top-level game tree per
/// game of a match.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Collection {
    /// The top-level game trees, in file order.
    pub trees: Vec<GameTree>,
}

/// A game tree: a sequence of nodes followed by the variations that branch off after its last
/// node. Parsed game trees always have at least one node.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameTree {
    /// The nodes, in order; the first node of a top-level game tree is the root node.
    pub nodes: Vec<Node>,
    /// The variations following the last node; the first one is the main line.
    pub variations: Vec<GameTree>,
}

/// A node: an ordered list of properties.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Node {
    /// The properties in the order they were written.
    pub properties: Vec<Property>,
}

/// A property: an identifier and its values.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Property {
    /// The identifier as written (ASCII letters, normally upper-case).
    pub ident: String,
    /// The values, unescaped, in order. Parsed properties always have at least one value.
    pub values: Vec<String>,
}

impl Collection {
    /// A collection of the given game trees.
    pub fn new(trees: Vec<GameTree>) -> Collection {
        Collection { trees }
    }
}

impl GameTree {
    /// A game tree of the given nodes, without variations.
    pub fn new(nodes: Vec<Node>) -> GameTree {
        GameTree {
            nodes,
            variations: Vec::new(),
        }
    }

    /// The first node (the root node of a top-level game tree).
    pub fn root(&self) -> Option<&Node> {
        self.nodes.first()
    }

    /// The main line: this tree's nodes followed by those of its first variation, of that
    /// variation's first variation, and so on.
    pub fn main_line(&self) -> impl Iterator<Item = &Node> + '_ {
        std::iter::successors(Some(self), |tree| tree.variations.first())
            .flat_map(|tree| tree.nodes.iter())
    }
}

impl Node {
    /// A node with the given properties.
    pub fn new(properties: Vec<Property>) -> Node {
        Node { properties }
    }

    /// The first property whose identifier is `ident`. Lower-case letters in the stored
    /// identifier are ignored (FF\[3] style), so `get("GM")` also finds `GaMe`.
    pub fn get(&self, ident: &str) -> Option<&Property> {
        self.properties.iter().find(|p| p.is(ident))
    }

    /// All properties whose identifier is `ident` (compared as in [`Node::get`]).
    pub fn get_all<'a>(&'a self, ident: &'a str) -> impl Iterator<Item = &'a Property> + 'a {
        self.properties.iter().filter(move |p| p.is(ident))
    }

    /// The first value of the first property `ident`, if the node has that property.
    pub fn value(&self, ident: &str) -> Option<&str> {
        self.get(ident).map(Property::value)
    }

    /// Whether the node has a property `ident`.
    pub fn has(&self, ident: &str) -> bool {
        self.get(ident).is_some()
    }

    /// Appends a property.
    pub fn push(&mut self, ident: impl Into<String>, values: Vec<String>) {
        self.properties.push(Property::new(ident, values));
    }
}

impl Property {
    /// A property with the given identifier and values.
    pub fn new(ident: impl Into<String>, values: Vec<String>) -> Property {
        Property {
            ident: ident.into(),
            values,
        }
    }

    /// A property with a single value.
    pub fn single(ident: impl Into<String>, value: impl Into<String>) -> Property {
        Property::new(ident, vec![value.into()])
    }

    /// The first value, or `""` if there is none (never the case for a parsed property).
    pub fn value(&self) -> &str {
        self.values.first().map_or("", String::as_str)
    }

    /// The identifier without lower-case letters: the FF\[4] identifier of an FF\[3] long name
    /// such as `GaMe` (→ `GM`); FF\[4] identifiers are returned unchanged.
    pub fn canonical_ident(&self) -> String {
        self.ident
            .chars()
            .filter(|c| !c.is_ascii_lowercase())
            .collect()
    }

    /// Whether the identifier is `ident`, exactly or once lower-case letters are removed.
    pub fn is(&self, ident: &str) -> bool {
        self.ident == ident
            || self
                .ident
                .chars()
                .filter(|c| !c.is_ascii_lowercase())
                .eq(ident.chars())
    }
}

/// A syntax error in SGF text, with the 1-based position where it was found. Columns count
/// characters (not bytes); `\n`, `\r\n` and a lone `\r` each end a line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("SGF error at line {line}, column {column}: {kind}")]
pub struct SgfError {
    /// What was wrong.
    pub kind: SgfErrorKind,
    /// 1-based line number.
    pub line: usize,
    /// 1-based column number, in characters.
    pub column: usize,
}

/// What kind of syntax error an [`SgfError`] is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SgfErrorKind {
    /// Outside any game tree, something other than `(` or whitespace.
    ExpectedGameTree {
        /// The character found.
        found: char,
    },
    /// A game tree whose `(` is not followed by a node (`;`).
    ExpectedNode {
        /// The character found instead of `;`.
        found: char,
    },
    /// Inside a node, a character that cannot start a property, node or game tree.
    UnexpectedCharacter {
        /// The character found.
        found: char,
    },
    /// A node (`;`) after a variation: a game tree's nodes must come before its variations.
    NodeAfterVariation,
    /// An identifier not followed by a `[value]`.
    PropertyWithoutValue {
        /// The identifier.
        ident: String,
    },
    /// A `[` without its closing `]`; the error points at the `[`.
    UnterminatedValue,
    /// The text ended inside a game tree; the error points at the end of the text.
    UnexpectedEndOfFile {
        /// Line of the `(` of the innermost game tree left open.
        open_line: usize,
        /// Column of that `(`.
        open_column: usize,
    },
    /// Game trees nested deeper than [`MAX_NESTING_DEPTH`]; the error points at the `(` too many.
    NestingTooDeep,
}

impl fmt::Display for SgfErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SgfErrorKind::ExpectedGameTree { found } => {
                write!(f, "expected '(' to start a game tree, found {found:?}")
            }
            SgfErrorKind::ExpectedNode { found } => {
                write!(
                    f,
                    "expected ';' to start the game tree's first node, found {found:?}"
                )
            }
            SgfErrorKind::UnexpectedCharacter { found } => write!(
                f,
                "unexpected character {found:?} where a property, ';', '(' or ')' should be"
            ),
            SgfErrorKind::NodeAfterVariation => {
                write!(
                    f,
                    "node after a variation (a game tree's nodes must come first)"
                )
            }
            SgfErrorKind::PropertyWithoutValue { ident } => {
                // Identifiers are ASCII; a hostile one can be megabytes long.
                let shown = ident
                    .get(..20)
                    .map_or(ident.clone(), |start| format!("{start}..."));
                write!(f, "property without value ({shown} is not followed by '[')")
            }
            SgfErrorKind::UnterminatedValue => {
                write!(f, "unterminated value (no ']' closes this '[')")
            }
            SgfErrorKind::UnexpectedEndOfFile {
                open_line,
                open_column,
            } => write!(
                f,
                "unexpected end of file (the game tree opened at line {open_line}, column \
                 {open_column} is not closed with ')')"
            ),
            SgfErrorKind::NestingTooDeep => write!(
                f,
                "nesting too deep (game trees nested more than {MAX_NESTING_DEPTH} levels)"
            ),
        }
    }
}

/// Parses SGF text into a [`Collection`]. See the module documentation for the syntax.
///
/// # Errors
///
/// The first syntax error, with its position: see [`SgfErrorKind`] for the cases.
pub fn parse(text: &str) -> Result<Collection, SgfError> {
    // A byte order mark is invisible in editors, so positions are counted without it.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    Parser { text, pos: 0 }.collection()
}

/// Writes a collection as SGF text in GNU Backgammon's layout (see the module documentation).
///
/// `parse(&write(&c)) == Ok(c)` holds whenever every game tree has at least one node, every
/// identifier is a non-empty run of ASCII letters and every property has at least one value,
/// which is true of everything [`parse`] returns.
pub fn write(collection: &Collection) -> String {
    let mut out = String::new();
    for tree in &collection.trees {
        write_tree(&mut out, tree);
        out.push('\n');
    }
    out
}

/// Decodes the bytes of an SGF file: UTF-8 if they are valid UTF-8 (a byte order mark is
/// removed), otherwise by the root node's `CA` charset: ISO-8859-1 (Latin-1), ISO-8859-15 and
/// Windows-1252 are supported; a file that declares UTF-8 but is not valid UTF-8 keeps its valid
/// UTF-8 sequences and reads the other bytes as Latin-1; any other or no `CA` means Latin-1.
pub fn decode(bytes: &[u8]) -> String {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    if let Ok(text) = std::str::from_utf8(bytes) {
        return text.to_owned();
    }
    let charset = declared_charset(bytes).map(|name| charset_from_name(&name));
    match charset {
        Some(Charset::Utf8) => decode_utf8_or_latin1(bytes),
        Some(Charset::Windows1252) => bytes.iter().map(|&b| windows_1252(b)).collect(),
        Some(Charset::Latin9) => bytes.iter().map(|&b| latin_9(b)).collect(),
        Some(Charset::Latin1) | None => bytes.iter().map(|&b| char::from(b)).collect(),
    }
}

// ---------------------------------------------------------------------------------------------
// Parser

/// Recursive-descent parser with an explicit stack of open game trees. `pos` is a byte offset
/// into `text`; it only ever stops on character boundaries because it moves past ASCII
/// delimiters one byte at a time and past other characters by their UTF-8 length.
struct Parser<'a> {
    text: &'a str,
    pos: usize,
}

impl Parser<'_> {
    fn collection(mut self) -> Result<Collection, SgfError> {
        let mut collection = Collection::default();
        // Game trees opened and not yet closed, innermost last, with the offset of their '('.
        let mut open: Vec<(GameTree, usize)> = Vec::new();
        loop {
            self.skip_whitespace();
            let Some(c) = self.peek() else { break };
            let Some((tree, _)) = open.last_mut() else {
                if c != '(' {
                    return Err(self.error_here(SgfErrorKind::ExpectedGameTree { found: c }));
                }
                self.open_tree(&mut open)?;
                continue;
            };
            match c {
                ';' => {
                    if !tree.variations.is_empty() {
                        return Err(self.error_here(SgfErrorKind::NodeAfterVariation));
                    }
                    self.pos += 1;
                    let node = self.node()?;
                    tree.nodes.push(node);
                }
                '(' => self.open_tree(&mut open)?,
                ')' => {
                    self.pos += 1;
                    if let Some((tree, _)) = open.pop() {
                        match open.last_mut() {
                            Some((parent, _)) => parent.variations.push(tree),
                            None => collection.trees.push(tree),
                        }
                    }
                }
                // `node()` consumes properties, so only a stray character can get here.
                found => {
                    return Err(self.error_here(SgfErrorKind::UnexpectedCharacter { found }));
                }
            }
        }
        match open.last() {
            Some(&(_, start)) => Err(self.unexpected_end(start)),
            None => Ok(collection),
        }
    }

    /// Consumes a `(` and checks that a node follows.
    fn open_tree(&mut self, open: &mut Vec<(GameTree, usize)>) -> Result<(), SgfError> {
        let start = self.pos;
        if open.len() >= MAX_NESTING_DEPTH {
            return Err(self.error_at(start, SgfErrorKind::NestingTooDeep));
        }
        self.pos += 1;
        self.skip_whitespace();
        match self.peek() {
            Some(';') => {
                open.push((GameTree::default(), start));
                Ok(())
            }
            Some(found) => Err(self.error_here(SgfErrorKind::ExpectedNode { found })),
            None => Err(self.unexpected_end(start)),
        }
    }

    /// Parses the properties of a node whose `;` has been consumed.
    fn node(&mut self) -> Result<Node, SgfError> {
        let mut node = Node::default();
        loop {
            self.skip_whitespace();
            match self.peek() {
                Some(c) if c.is_ascii_alphabetic() => node.properties.push(self.property()?),
                Some(';' | '(' | ')') | None => return Ok(node),
                Some(found) => {
                    return Err(self.error_here(SgfErrorKind::UnexpectedCharacter { found }))
                }
            }
        }
    }

    /// Parses an identifier and its values.
    fn property(&mut self) -> Result<Property, SgfError> {
        let start = self.pos;
        let length = self.text.as_bytes()[start..]
            .iter()
            .take_while(|b| b.is_ascii_alphabetic())
            .count();
        self.pos += length;
        let ident = self.text[start..self.pos].to_owned();
        let mut values = Vec::new();
        loop {
            self.skip_whitespace();
            if self.peek() != Some('[') {
                break;
            }
            values.push(self.value()?);
        }
        if values.is_empty() {
            return Err(self.error_at(start, SgfErrorKind::PropertyWithoutValue { ident }));
        }
        Ok(Property { ident, values })
    }

    /// Parses a `[value]` starting at the `[`, unescaping it.
    fn value(&mut self) -> Result<String, SgfError> {
        let open = self.pos;
        self.pos += 1;
        let mut value = String::new();
        loop {
            let rest = &self.text.as_bytes()[self.pos..];
            let Some(run) = rest.iter().position(|&b| b == b']' || b == b'\\') else {
                return Err(self.error_at(open, SgfErrorKind::UnterminatedValue));
            };
            // `]` and `\` are ASCII, so both ends of the run are character boundaries.
            value.push_str(&self.text[self.pos..self.pos + run]);
            self.pos += run;
            if self.bump() == Some(']') {
                return Ok(value);
            }
            // After a backslash: a line break is removed, any other character kept literally.
            match self.bump() {
                None => return Err(self.error_at(open, SgfErrorKind::UnterminatedValue)),
                Some('\n') => self.skip_byte(b'\r'),
                Some('\r') => self.skip_byte(b'\n'),
                Some(c) => value.push(c),
            }
        }
    }

    fn peek(&self) -> Option<char> {
        self.text[self.pos..].chars().next()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        Some(c)
    }

    fn skip_byte(&mut self, byte: u8) {
        if self.text.as_bytes().get(self.pos) == Some(&byte) {
            self.pos += 1;
        }
    }

    fn skip_whitespace(&mut self) {
        let rest = &self.text[self.pos..];
        let trimmed = rest.trim_start_matches(char::is_whitespace);
        self.pos += rest.len() - trimmed.len();
    }

    fn error_here(&self, kind: SgfErrorKind) -> SgfError {
        self.error_at(self.pos, kind)
    }

    fn error_at(&self, offset: usize, kind: SgfErrorKind) -> SgfError {
        let (line, column) = line_column(self.text, offset);
        SgfError { kind, line, column }
    }

    fn unexpected_end(&self, open: usize) -> SgfError {
        let (open_line, open_column) = line_column(self.text, open);
        self.error_at(
            self.text.len(),
            SgfErrorKind::UnexpectedEndOfFile {
                open_line,
                open_column,
            },
        )
    }
}

/// The 1-based line and column (in characters) of a byte offset.
fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let bytes = text.as_bytes();
    let mut line = 1;
    let mut column = 1;
    for (i, &b) in bytes.iter().enumerate().take(offset) {
        match b {
            b'\n' => {
                line += 1;
                column = 1;
            }
            // "\r\n" is one line break, counted at the '\n'.
            b'\r' => {
                if bytes.get(i + 1) != Some(&b'\n') {
                    line += 1;
                    column = 1;
                }
            }
            // UTF-8 continuation bytes do not start a character.
            _ if b & 0xC0 == 0x80 => {}
            _ => column += 1,
        }
    }
    (line, column)
}

// ---------------------------------------------------------------------------------------------
// Writer

/// Writes one game tree and its variations, iteratively.
fn write_tree(out: &mut String, tree: &GameTree) {
    write_sequence(out, tree);
    // Each entry: a game tree whose nodes are written, and the index of its next variation.
    let mut stack: Vec<(&GameTree, usize)> = vec![(tree, 0)];
    while let Some(top) = stack.last_mut() {
        let (current, next) = *top;
        if let Some(variation) = current.variations.get(next) {
            top.1 += 1;
            out.push('\n');
            write_sequence(out, variation);
            stack.push((variation, 0));
        } else {
            out.push(')');
            stack.pop();
        }
    }
}

/// Writes the `(` of a game tree and its nodes, one per line.
fn write_sequence(out: &mut String, tree: &GameTree) {
    out.push('(');
    for (index, node) in tree.nodes.iter().enumerate() {
        if index > 0 {
            out.push('\n');
        }
        out.push(';');
        for property in &node.properties {
            out.push_str(&property.ident);
            for value in &property.values {
                out.push('[');
                for c in value.chars() {
                    if c == ']' || c == '\\' {
                        out.push('\\');
                    }
                    out.push(c);
                }
                out.push(']');
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Charsets

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Charset {
    Utf8,
    Latin1,
    Latin9,
    Windows1252,
}

/// The first value of the `CA` property of the first node, found by scanning the raw bytes (the
/// SGF delimiters are ASCII in every charset this module reads). `None` if the text does not
/// start like a game tree or the root node has no `CA`.
fn declared_charset(bytes: &[u8]) -> Option<String> {
    let mut pos = 0;
    let skip_space = |pos: &mut usize| {
        while bytes.get(*pos).is_some_and(u8::is_ascii_whitespace) {
            *pos += 1;
        }
    };
    skip_space(&mut pos);
    if bytes.get(pos) != Some(&b'(') {
        return None;
    }
    pos += 1;
    skip_space(&mut pos);
    if bytes.get(pos) != Some(&b';') {
        return None;
    }
    pos += 1;
    loop {
        skip_space(&mut pos);
        let start = pos;
        while bytes.get(pos).is_some_and(u8::is_ascii_alphabetic) {
            pos += 1;
        }
        if pos == start {
            return None;
        }
        let is_charset = bytes[start..pos]
            .iter()
            .filter(|b| !b.is_ascii_lowercase())
            .eq(b"CA".iter());
        let mut first_value = None;
        loop {
            skip_space(&mut pos);
            if bytes.get(pos) != Some(&b'[') {
                break;
            }
            pos += 1;
            let mut value = Vec::new();
            loop {
                match *bytes.get(pos)? {
                    b']' => break,
                    b'\\' => {
                        pos += 1;
                        value.push(*bytes.get(pos)?);
                    }
                    b => value.push(b),
                }
                pos += 1;
            }
            pos += 1;
            if first_value.is_none() {
                first_value = Some(value);
            }
        }
        if is_charset {
            return first_value.map(|value| String::from_utf8_lossy(&value).into_owned());
        }
    }
}

fn charset_from_name(name: &str) -> Charset {
    let key: String = name
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect();
    match key.as_str() {
        "utf8" => Charset::Utf8,
        "iso885915" | "latin9" | "l9" => Charset::Latin9,
        "windows1252" | "cp1252" | "xcp1252" => Charset::Windows1252,
        _ => Charset::Latin1,
    }
}

/// Valid UTF-8 sequences as UTF-8, every other byte as Latin-1.
fn decode_utf8_or_latin1(mut bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    loop {
        match std::str::from_utf8(bytes) {
            Ok(text) => {
                out.push_str(text);
                return out;
            }
            Err(error) => {
                let (valid, rest) = bytes.split_at(error.valid_up_to());
                out.push_str(std::str::from_utf8(valid).unwrap_or_default());
                let invalid = error.error_len().unwrap_or(rest.len());
                let (bad, rest) = rest.split_at(invalid);
                out.extend(bad.iter().map(|&b| char::from(b)));
                bytes = rest;
            }
        }
    }
}

/// Windows-1252: Latin-1 except for 0x80..=0x9F; its five unassigned bytes map to the C1
/// controls of the same value, as web browsers do.
fn windows_1252(b: u8) -> char {
    const HIGH: [char; 32] = [
        '\u{20AC}', '\u{81}', '\u{201A}', '\u{192}', '\u{201E}', '\u{2026}', '\u{2020}',
        '\u{2021}', '\u{2C6}', '\u{2030}', '\u{160}', '\u{2039}', '\u{152}', '\u{8D}', '\u{17D}',
        '\u{8F}', '\u{90}', '\u{2018}', '\u{2019}', '\u{201C}', '\u{201D}', '\u{2022}', '\u{2013}',
        '\u{2014}', '\u{2DC}', '\u{2122}', '\u{161}', '\u{203A}', '\u{153}', '\u{9D}', '\u{17E}',
        '\u{178}',
    ];
    match b {
        0x80..=0x9F => HIGH[usize::from(b - 0x80)],
        _ => char::from(b),
    }
}

/// ISO-8859-15: Latin-1 with eight letters and the euro sign replaced.
fn latin_9(b: u8) -> char {
    match b {
        0xA4 => '\u{20AC}',
        0xA6 => '\u{160}',
        0xA8 => '\u{161}',
        0xB4 => '\u{17D}',
        0xB8 => '\u{17E}',
        0xBC => '\u{152}',
        0xBD => '\u{153}',
        0xBE => '\u{178}',
        _ => char::from(b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A match in GNU Backgammon's layout (shortened analysis values).
    const SAMPLE: &str = "(;FF[4]GM[6]CA[UTF-8]AP[GNU Backgammon:1.08.003]MI[length:7][game:0][ws:0][bs:0]PW[Kévin Unger]PB[Maxence Job]DT[2023-11-26]RU[Crawford]RE[W+1]
;W[51xwmh]A[0][mhxw E ver 3 0.500287 0.135144 0.005422 0.130120 0.004473 0.007629 2C 0 1 0.000000 1][mhfe ]MR[]LU[0.00186]
;B[61lrqr]DA[E ver 3 2C 1 0.000000 1 0.499713 0.130120]A[0][lrqr E ver 3 0.5 0.1 0.0 0.1 0.0 0.0 2C 0 1 0.000000 1]MR[]LU[0.01]GB[1]
;W[double]C[a comment with \\] and \\\\ in it
on two lines]
;B[take]
;PL[B]DI[53]LU[-inf])
(;FF[4]GM[6]CA[UTF-8]MI[length:7][game:1][ws:1][bs:0]PW[Kévin Unger]PB[Maxence Job]RU[Crawford]
;PL[W]AE[a:y]AW[aaf]AB[xxs]CP[c]CV[1]
;B[64])
";

    fn prop(ident: &str, values: &[&str]) -> Property {
        Property::new(ident, values.iter().map(|v| v.to_string()).collect())
    }

    fn error_of(text: &str) -> SgfError {
        match parse(text) {
            Ok(c) => panic!("{text:?} parsed as {c:?}"),
            Err(e) => e,
        }
    }

    #[test]
    fn parses_the_sample() {
        let c = parse(SAMPLE).unwrap();
        assert_eq!(c.trees.len(), 2);
        let game = &c.trees[0];
        assert_eq!(game.nodes.len(), 6);
        assert!(game.variations.is_empty());
        let root = game.root().unwrap();
        assert_eq!(root.value("GM"), Some("6"));
        assert_eq!(root.value("PW"), Some("Kévin Unger"));
        assert_eq!(
            root.get("MI").unwrap().values,
            ["length:7", "game:0", "ws:0", "bs:0"]
        );
        assert_eq!(root.properties[0], prop("FF", &["4"]));
        let analysed = &game.nodes[1];
        assert_eq!(analysed.get("A").unwrap().values.len(), 3);
        assert_eq!(analysed.get("A").unwrap().values[2], "mhfe ");
        assert_eq!(analysed.value("MR"), Some(""));
        assert_eq!(
            game.nodes[3].value("C"),
            Some("a comment with ] and \\ in it\non two lines")
        );
        assert_eq!(game.nodes[5].value("LU"), Some("-inf"));
        assert_eq!(c.trees[1].nodes[1].get("AW").unwrap().values, ["aaf"]);
    }

    #[test]
    fn writes_gnubg_layout_byte_for_byte() {
        let c = parse(SAMPLE).unwrap();
        assert_eq!(write(&c), SAMPLE);
    }

    #[test]
    fn round_trips_built_collection() {
        let mut root = Node::default();
        root.push("FF", vec!["4".into()]);
        root.push(
            "C",
            vec!["] \\ [ \\\n \r\n \n\r ; ( ) é".into(), String::new()],
        );
        let mut tree = GameTree::new(vec![root, Node::default()]);
        let branch = |v: &str| GameTree::new(vec![Node::new(vec![Property::single("B", v)])]);
        let mut first = branch("1");
        first.variations.push(branch("1a"));
        first.variations.push(branch("1b"));
        tree.variations.push(first);
        tree.variations.push(branch("2"));
        let c = Collection::new(vec![tree.clone(), tree]);
        let text = write(&c);
        assert_eq!(parse(&text), Ok(c.clone()));
        assert!(text.starts_with("(;FF[4]C[\\] \\\\ [ \\\\\n"), "{text}");
        assert!(
            text.contains(";\n(;B[1]\n(;B[1a])\n(;B[1b]))\n(;B[2]))\n"),
            "{text}"
        );
        let main: Vec<&str> = c.trees[0]
            .main_line()
            .filter_map(|n| n.value("B"))
            .collect();
        assert_eq!(main, ["1", "1a"]);
    }

    #[test]
    fn escapes_and_soft_line_breaks() {
        let c = parse("(;C[a\\]b\\\\c\\d\\\ne\\\r\nf\\\n\rg\\\rh\\[i]D[\\\\])").unwrap();
        let node = &c.trees[0].nodes[0];
        assert_eq!(node.value("C"), Some("a]b\\cdefgh[i"));
        assert_eq!(node.value("D"), Some("\\"));
        // Line breaks without a backslash are kept as they are.
        let c = parse("(;C[x\r\ny\rz\n])").unwrap();
        assert_eq!(c.trees[0].nodes[0].value("C"), Some("x\r\ny\rz\n"));
    }

    #[test]
    fn whitespace_identifiers_and_empty_input() {
        let c = parse("\u{feff} \n ( ; GaMe [6] \t FF[4] ; B [64] [x] \r\n ) \n").unwrap();
        let nodes = &c.trees[0].nodes;
        assert_eq!(nodes[0].properties[0].ident, "GaMe");
        assert_eq!(nodes[0].properties[0].canonical_ident(), "GM");
        assert_eq!(nodes[0].value("GM"), Some("6"));
        assert_eq!(nodes[0].value("GaMe"), Some("6"));
        assert!(!nodes[0].has("G"));
        assert_eq!(nodes[1].get("B").unwrap().values, ["64", "x"]);
        assert_eq!(parse(""), Ok(Collection::default()));
        assert_eq!(parse(" \n\t"), Ok(Collection::default()));
        // Repeated properties are kept, in order.
        let c = parse("(;A[1]A[2];)").unwrap();
        let values: Vec<&str> = c.trees[0].nodes[0]
            .get_all("A")
            .map(|p| p.value())
            .collect();
        assert_eq!(values, ["1", "2"]);
        assert!(c.trees[0].nodes[1].properties.is_empty());
    }

    #[test]
    fn errors_have_kind_and_position() {
        let e = error_of("(;FF[4]\n;C[never closed");
        assert_eq!(
            (e.kind.clone(), e.line, e.column),
            (SgfErrorKind::UnterminatedValue, 2, 3)
        );
        assert_eq!(
            e.to_string(),
            "SGF error at line 2, column 3: unterminated value (no ']' closes this '[')"
        );

        let e = error_of("\u{feff}x(;FF[4])");
        assert_eq!(e.kind, SgfErrorKind::ExpectedGameTree { found: 'x' });
        assert_eq!((e.line, e.column), (1, 1));

        let e = error_of("(;FF[4])\n  junk");
        assert_eq!(e.kind, SgfErrorKind::ExpectedGameTree { found: 'j' });
        assert_eq!((e.line, e.column), (2, 3));

        let e = error_of("(;FF[4]\r\n;B[64]");
        assert_eq!(
            e.kind,
            SgfErrorKind::UnexpectedEndOfFile {
                open_line: 1,
                open_column: 1
            }
        );
        assert_eq!((e.line, e.column), (2, 7));
        assert!(e.to_string().contains("unexpected end of file"), "{e}");

        let e = error_of("(;FF[4]\n;é\u{2603}B ;W[1])");
        assert_eq!(e.kind, SgfErrorKind::UnexpectedCharacter { found: 'é' });
        assert_eq!((e.line, e.column), (2, 2));

        let e = error_of("(;FF[4]GM;B[1])");
        assert_eq!(
            e.kind,
            SgfErrorKind::PropertyWithoutValue { ident: "GM".into() }
        );
        assert_eq!((e.line, e.column), (1, 8));
        assert_eq!(
            e.to_string(),
            "SGF error at line 1, column 8: property without value (GM is not followed by '[')"
        );

        let e = error_of("(;A[1]\r(B[1]))");
        assert_eq!(e.kind, SgfErrorKind::ExpectedNode { found: 'B' });
        assert_eq!((e.line, e.column), (2, 2));

        let e = error_of("(;A[1](;B[1]);C[1])");
        assert_eq!(e.kind, SgfErrorKind::NodeAfterVariation);
        assert_eq!((e.line, e.column), (1, 14));

        assert_eq!(
            error_of("()").kind,
            SgfErrorKind::ExpectedNode { found: ')' }
        );
        assert_eq!(
            error_of("(;A[1]1[2])").kind,
            SgfErrorKind::UnexpectedCharacter { found: '1' }
        );
        assert!(matches!(
            error_of("(").kind,
            SgfErrorKind::UnexpectedEndOfFile { .. }
        ));
        assert_eq!(error_of("(;A[\\").kind, SgfErrorKind::UnterminatedValue);
        let e = error_of(&format!("(;{}", "Ab".repeat(1000)));
        assert_eq!(
            e.to_string(),
            "SGF error at line 1, column 3: property without value \
             (AbAbAbAbAbAbAbAbAbAb... is not followed by '[')"
        );
        assert_eq!(
            error_of("(;A").kind,
            SgfErrorKind::PropertyWithoutValue { ident: "A".into() }
        );
        assert_eq!(
            error_of(")").kind,
            SgfErrorKind::ExpectedGameTree { found: ')' }
        );
    }

    #[test]
    fn deep_nesting() {
        let depth = MAX_NESTING_DEPTH;
        let text = format!("{}{}", "(;B[1]".repeat(depth), ")".repeat(depth));
        let c = parse(&text).unwrap();
        assert_eq!(c.trees[0].main_line().count(), depth);
        let written = write(&c);
        assert_eq!(written, format!("{}\n", text.replace("](", "]\n(")));
        // Everything derived (clone, ==, Debug, drop) copes with the deepest parsed tree.
        assert_eq!(parse(&written), Ok(c.clone()));
        assert!(format!("{c:?}").len() > depth);
        drop(c);

        let text = format!("\n{}", "(;".repeat(depth + 1));
        let e = error_of(&text);
        assert_eq!(e.kind, SgfErrorKind::NestingTooDeep);
        assert_eq!((e.line, e.column), (2, 2 * depth + 1));
        assert!(e.to_string().contains("nesting too deep"));

        // A long flat file is not limited.
        let text = format!("({})", ";B[11]".repeat(200_000));
        assert_eq!(parse(&text).unwrap().trees[0].nodes.len(), 200_000);
    }

    #[test]
    fn decodes_charsets() {
        assert_eq!(
            decode("(;CA[UTF-8]PW[Kévin])".as_bytes()),
            "(;CA[UTF-8]PW[Kévin])"
        );
        assert_eq!(decode(b"\xEF\xBB\xBF(;PW[K\xC3\xA9])"), "(;PW[Ké])");
        assert_eq!(decode(b"(;PW[K\xE9vin])"), "(;PW[Kévin])");
        assert_eq!(
            decode(b"(;CA[ISO-8859-1]PW[\x80\xE9])"),
            "(;CA[ISO-8859-1]PW[\u{80}é])"
        );
        assert_eq!(
            decode(b"(;CA[windows-1252]PW[\x80\xE9])"),
            "(;CA[windows-1252]PW[€é])"
        );
        assert_eq!(
            decode(b" ( ;FF[4] ChArset [latin9] PW[\xA4])"),
            " ( ;FF[4] ChArset [latin9] PW[€])"
        );
        assert_eq!(
            decode(b"(;C[x\\]]CA[UTF-8]PW[K\xC3\xA9 K\xE9])"),
            "(;C[x\\]]CA[UTF-8]PW[Ké Ké])"
        );
        assert_eq!(decode(b"(;CA[UTF-8]PW[\xC3"), "(;CA[UTF-8]PW[Ã");
        assert_eq!(decode(b"\xFF\xFE"), "ÿþ");
        assert_eq!(decode(b""), "");
    }

    /// Tiny xorshift generator so that the random tests need no crates and are reproducible.
    struct XorShift(u64);

    impl XorShift {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }

        fn below(&mut self, n: usize) -> usize {
            (self.next() % n.max(1) as u64) as usize
        }
    }

    #[test]
    fn random_mutations_never_panic() {
        const ALPHABET: &[char] = &[
            '(', ')', ';', '[', ']', '\\', '\n', '\r', ' ', 'A', 'b', 'Z', '0', 'é', '\u{0}',
        ];
        let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
        let sample: Vec<char> = SAMPLE.chars().collect();
        let (mut parsed, mut failed) = (0, 0);
        for _ in 0..4000 {
            let mut text = sample.clone();
            for _ in 0..1 + rng.below(4) {
                let at = rng.below(text.len() + 1);
                match rng.below(5) {
                    0 if at < text.len() => {
                        text.remove(at);
                    }
                    1 => text.insert(at, ALPHABET[rng.below(ALPHABET.len())]),
                    2 if at < text.len() => text[at] = ALPHABET[rng.below(ALPHABET.len())],
                    3 => text.truncate(at),
                    _ => {
                        let end = (at + rng.below(40)).min(text.len());
                        let copy: Vec<char> = text[at..end].to_vec();
                        let to = rng.below(text.len() + 1);
                        text.splice(to..to, copy);
                    }
                }
            }
            let text: String = text.into_iter().collect();
            match parse(&text) {
                Ok(c) => {
                    parsed += 1;
                    assert_eq!(parse(&write(&c)), Ok(c), "{text:?}");
                }
                Err(e) => {
                    failed += 1;
                    let lines = text.split('\n').count() + text.matches('\r').count();
                    assert!(
                        e.line >= 1 && e.line <= lines && e.column >= 1,
                        "{e} in {text:?}"
                    );
                    assert!(e.to_string().contains(&format!("line {}", e.line)));
                }
            }
            let bytes: Vec<u8> = text
                .bytes()
                .map(|b| b ^ (rng.below(256) as u8 & 0x80))
                .collect();
            let _ = parse(&decode(&bytes));
        }
        assert!(
            parsed > 100 && failed > 100,
            "parsed {parsed}, failed {failed}"
        );
    }

    #[test]
    fn random_collections_round_trip() {
        const PIECES: &[&str] = &[
            "a", "]", "\\", "\n", "\r", "\\\n", " ", "é", "[", ")", ";", "",
        ];
        let mut rng = XorShift(12345);
        for _ in 0..500 {
            let mut c = Collection::default();
            for _ in 0..1 + rng.below(3) {
                let mut tree = GameTree::default();
                for _ in 0..1 + rng.below(4) {
                    let mut node = Node::default();
                    for _ in 0..rng.below(4) {
                        let ident: String = (0..1 + rng.below(3))
                            .map(|_| ['A', 'B', 'c'][rng.below(3)])
                            .collect();
                        let values = (0..1 + rng.below(3))
                            .map(|_| {
                                (0..rng.below(6))
                                    .map(|_| PIECES[rng.below(PIECES.len())])
                                    .collect()
                            })
                            .collect();
                        node.push(ident, values);
                    }
                    tree.nodes.push(node);
                }
                if rng.below(2) == 0 {
                    tree.variations.push(tree.clone());
                }
                c.trees.push(tree);
            }
            assert_eq!(parse(&write(&c)), Ok(c));
        }
    }
}
