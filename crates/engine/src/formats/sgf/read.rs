//! Reading GNU Backgammon's SGF into a [`MatchRecord`]; see the module documentation of
//! [`super`] for the dialect.

use std::fmt;

use thiserror::Error;

use super::analysis::{self as values, Version};
use super::letters::parse_move_letters;
use super::tree::{self, Collection, GameTree, Node, Property, SgfError};
use crate::game::match_state::{CubeOwner, Player, Resignation};
use crate::game::record::analysis::{Luck, Skill};
use crate::game::record::{
    ActionAnalysis, Entry, GameRecord, GameResult, MatchInfo, MatchRecord, RecordAction, Setup,
    Variant,
};
use crate::game::{Rules, MAX_CUBE_LOG2, MAX_MATCH_LENGTH};
use crate::rules::dice::Dice;
use crate::rules::movegen::play_steps;
use crate::rules::moves::Move;
use crate::rules::position::{Position, Side};

/// Why an SGF text is not a readable backgammon match. Games and nodes are counted from 1 and 0:
/// game 1 is the first game tree, node 0 its root node, node 1 the first node after the root
/// (GNU Backgammon writes one node per line, the root on the game's first line).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SgfReadError {
    /// The text is not SGF.
    #[error(transparent)]
    Syntax(#[from] SgfError),
    /// The text holds no game tree at all.
    #[error("the file holds no game")]
    NoGames,
    /// A game tree is not a backgammon game.
    #[error("game {game}: not a backgammon game ({found}; backgammon games are GM[6])")]
    NotBackgammon {
        game: usize,
        /// What the root node says: `GM[1]`, or that it has no `GM`.
        found: String,
    },
    /// The match length is not one a match can have.
    #[error("game {game}: a match of {length} points (matches are 1 to {MAX_MATCH_LENGTH} points long, 0 for money play)")]
    BadMatchLength { game: usize, length: i64 },
    /// A move's dice (or a `DI` value) are not two digits from 1 to 6.
    #[error("game {game}, node {node}: bad dice in {text:?} (two digits from 1 to 6 expected)")]
    BadDice {
        game: usize,
        node: usize,
        /// The value, shortened if long.
        text: String,
    },
    /// A move's letters cannot be read.
    #[error("game {game}, node {node}: bad move {text:?}: {reason}")]
    BadMove {
        game: usize,
        node: usize,
        /// The value, shortened if long.
        text: String,
        reason: String,
    },
    /// A set-up node describes no backgammon position.
    #[error("game {game}, node {node}: bad set-up: {reason}")]
    BadSetup {
        game: usize,
        node: usize,
        reason: String,
    },
}

/// Something the reader ignored or could not use, with where it was.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SgfWarning {
    /// The game, counted from 1.
    pub game: usize,
    /// The node of the game's main line, counted from 0 (the root); `None` for the whole game.
    pub node: Option<usize>,
    pub kind: SgfWarningKind,
}

/// What an [`SgfWarning`] is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SgfWarningKind {
    /// A property this reader (and GNU Backgammon) does not know, `count` times in the file;
    /// the warning points at the first.
    UnknownProperty { ident: String, count: usize },
    /// A known property where it has no meaning (analysis on a set-up, a set-up property in a
    /// move node, a root property in another node, ...).
    IgnoredProperty { ident: String, reason: String },
    /// A property whose value cannot be used (an unreadable result, date, score, cube value or
    /// analysis value); it is ignored.
    BadValue {
        ident: String,
        value: String,
        reason: String,
    },
    /// Variations (side lines) of a game; only the main line is read.
    VariationsIgnored { count: usize },
    /// A second move in one node; only the first is read.
    SecondAction { value: String },
    /// A move that cannot be played on the board the reader follows. The record keeps it (its
    /// replay will report it); set-up changes of the cube later in the game that need the
    /// board are ignored.
    UnplayableMove { value: String },
    /// A later game's root disagrees with the first game's about the match (length, players,
    /// rules); the first game's information is kept.
    InconsistentMatch { what: String },
    /// A comment on a node without an action, which nothing can hold.
    CommentIgnored,
}

impl fmt::Display for SgfWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.node {
            Some(node) => write!(f, "game {}, node {node}: ", self.game)?,
            None => write!(f, "game {}: ", self.game)?,
        }
        match &self.kind {
            SgfWarningKind::UnknownProperty { ident, count } => {
                write!(f, "unknown property {ident} ignored")?;
                if *count > 1 {
                    write!(f, " ({count} times in the file)")?;
                }
                Ok(())
            }
            SgfWarningKind::IgnoredProperty { ident, reason } => {
                write!(f, "{ident} ignored: {reason}")
            }
            SgfWarningKind::BadValue {
                ident,
                value,
                reason,
            } => write!(f, "{ident}[{value}] ignored: {reason}"),
            SgfWarningKind::VariationsIgnored { count } => write!(
                f,
                "{count} variation(s) ignored (only the main line is read)"
            ),
            SgfWarningKind::SecondAction { value } => {
                write!(f, "a second move [{value}] in the node ignored")
            }
            SgfWarningKind::UnplayableMove { value } => write!(
                f,
                "the move [{value}] cannot be played on the board; later cube set-ups are ignored"
            ),
            SgfWarningKind::InconsistentMatch { what } => {
                write!(f, "{what}; the first game's is kept")
            }
            SgfWarningKind::CommentIgnored => {
                write!(f, "comment on a node without an action ignored")
            }
        }
    }
}

/// Reads the text of a GNU Backgammon SGF file (see [`super`]): the match record and what was
/// ignored.
///
/// # Errors
///
/// A syntax error, a game that is not backgammon, unreadable dice or move letters, an impossible
/// set-up position, an unsupported match length ([`SgfReadError`]). Never panics.
pub fn read(text: &str) -> Result<(MatchRecord, Vec<SgfWarning>), SgfReadError> {
    let collection = tree::parse(text)?;
    Reader::default().collection(&collection)
}

/// Reads an SGF file from its bytes, decoding them as [`tree::decode`] does (UTF-8, or the
/// single-byte charset the file declares).
///
/// # Errors
///
/// As [`read`].
pub fn read_bytes(bytes: &[u8]) -> Result<(MatchRecord, Vec<SgfWarning>), SgfReadError> {
    read(&tree::decode(bytes))
}

// ---------------------------------------------------------------------------------------------

/// Properties read without a word: the SGF header properties and the time-control properties
/// of old GNU Backgammon versions.
const SILENT_ROOT: &[&str] = &[
    "FF", "GM", "CA", "ST", "SZ", "GN", "US", "SO", "CP", "ON", "OT", "TM", "BT", "WT",
];
const SILENT_NODE: &[&str] = &["WL", "BL", "OW", "OB", "N"];
/// Root properties, ignored in other nodes.
const ROOT_ONLY: &[&str] = &[
    "FF", "GM", "CA", "AP", "MI", "PW", "PB", "WR", "BR", "DT", "EV", "RO", "PC", "AN", "GC", "RU",
    "RE", "GS",
];
/// Properties of move and set-up nodes, ignored in a root node.
const NODE_ONLY: &[&str] = &[
    "B", "W", "AE", "AW", "AB", "PL", "CP", "DI", "DA", "A", "MR", "CR", "BM", "DO", "BC", "DC",
    "LU", "GB", "GW",
];

#[derive(Default)]
struct Reader {
    warnings: Vec<SgfWarning>,
    /// Unknown identifiers: where first seen and how often.
    unknown: Vec<(String, usize, usize, usize)>,
    version: Version,
}

/// What the first game's root says about the match, to compare later games with.
#[derive(PartialEq)]
struct MatchFacts {
    length: u16,
    rules: Rules,
    variant: Variant,
    cube_used: bool,
}

impl Reader {
    fn warn(&mut self, game: usize, node: Option<usize>, kind: SgfWarningKind) {
        self.warnings.push(SgfWarning { game, node, kind });
    }

    fn unknown(&mut self, game: usize, node: usize, ident: &str) {
        match self.unknown.iter_mut().find(|(i, ..)| i == ident) {
            Some(entry) => entry.3 += 1,
            None => self.unknown.push((ident.to_owned(), game, node, 1)),
        }
    }

    fn ignored(&mut self, game: usize, node: usize, ident: &str, reason: &str) {
        self.warn(
            game,
            Some(node),
            SgfWarningKind::IgnoredProperty {
                ident: ident.to_owned(),
                reason: reason.to_owned(),
            },
        );
    }

    fn bad_value(&mut self, game: usize, node: usize, ident: &str, value: &str, reason: String) {
        self.warn(
            game,
            Some(node),
            SgfWarningKind::BadValue {
                ident: ident.to_owned(),
                value: excerpt(value),
                reason,
            },
        );
    }

    fn collection(
        mut self,
        collection: &Collection,
    ) -> Result<(MatchRecord, Vec<SgfWarning>), SgfReadError> {
        if collection.trees.is_empty() {
            return Err(SgfReadError::NoGames);
        }
        let mut record = MatchRecord::default();
        let mut facts = None;
        for (index, tree) in collection.trees.iter().enumerate() {
            let game = self.game(index + 1, tree, &mut record.info, &mut facts)?;
            record.games.push(game);
        }
        for (ident, game, node, count) in std::mem::take(&mut self.unknown) {
            self.warn(
                game,
                Some(node),
                SgfWarningKind::UnknownProperty { ident, count },
            );
        }
        Ok((record, self.warnings))
    }

    fn game(
        &mut self,
        number: usize,
        tree: &GameTree,
        info: &mut MatchInfo,
        facts: &mut Option<MatchFacts>,
    ) -> Result<GameRecord, SgfReadError> {
        let Some(root) = tree.root() else {
            return Err(SgfReadError::NotBackgammon {
                game: number,
                found: "an empty game tree".to_owned(),
            });
        };
        let (mut game, variant) = self.root(number, root, info, facts)?;
        let side_lines = count_side_lines(tree);
        if side_lines > 0 {
            self.warn(
                number,
                None,
                SgfWarningKind::VariationsIgnored { count: side_lines },
            );
        }
        let mut tracker = Tracker::new(variant, game.auto_doubles);
        let mut open_setup = false;
        for (index, node) in tree.main_line().enumerate().skip(1) {
            self.node(
                number,
                index,
                node,
                &mut game,
                &mut tracker,
                &mut open_setup,
            )?;
        }
        if let Some(result) = game.result.filter(|r| r.resigned) {
            let cube = 1u32 << tracker.cube_log2.min(MAX_CUBE_LOG2);
            let resignation = match (result.points / cube).clamp(1, 3) {
                1 => Resignation::Single,
                2 => Resignation::Gammon,
                _ => Resignation::Backgammon,
            };
            let loser = result.winner.other();
            game.entries.push(Entry::new(RecordAction::Resign {
                player: loser,
                resignation,
            }));
            game.entries
                .push(Entry::new(RecordAction::AcceptResignation {
                    player: result.winner,
                }));
        }
        Ok(game)
    }

    // -----------------------------------------------------------------------------------------
    // Root node

    fn root(
        &mut self,
        game: usize,
        root: &Node,
        info: &mut MatchInfo,
        facts: &mut Option<MatchFacts>,
    ) -> Result<(GameRecord, Variant), SgfReadError> {
        match root.value("GM") {
            Some(gm) if atoi(gm) == 6 => {}
            Some(gm) => {
                return Err(SgfReadError::NotBackgammon {
                    game,
                    found: format!("GM[{}]", excerpt(gm)),
                })
            }
            None => {
                return Err(SgfReadError::NotBackgammon {
                    game,
                    found: "no GM property".to_owned(),
                })
            }
        }
        let first = facts.is_none();
        let mut record = GameRecord::default();
        let mut length: i64 = 0;
        let mut scores: [Option<&str>; 2] = [None, None];
        let mut names: [Option<String>; 2] = [None, None];
        let mut ru = RuleFlags::default();
        for property in &root.properties {
            let ident = property.canonical_ident();
            let value = property.value();
            match ident.as_str() {
                "MI" => {
                    for tag in &property.values {
                        if let Some(n) = tag.strip_prefix("length:") {
                            length = atoi(n).max(0);
                        } else if let Some(n) = tag.strip_prefix("ws:") {
                            scores[0] = Some(n);
                        } else if let Some(n) = tag.strip_prefix("bs:") {
                            scores[1] = Some(n);
                        }
                    }
                }
                "PW" => names[0] = Some(name(value)),
                "PB" => names[1] = Some(name(value)),
                "AP" => {
                    if first {
                        info.application = Some(value.to_owned());
                    }
                }
                "WR" => set_text(&mut info.ratings[0], value),
                "BR" => set_text(&mut info.ratings[1], value),
                "EV" => set_text(&mut info.event, value),
                "RO" => set_text(&mut info.round, value),
                "PC" => set_text(&mut info.place, value),
                "AN" => set_text(&mut info.annotator, value),
                "GC" => set_text(&mut info.comment, value),
                "C" => set_text(&mut record.comment, value),
                "DT" => match parse_date(value) {
                    Some(date) => info.date = Some(date),
                    None => self.bad_value(game, 0, "DT", value, "not a date YYYY-MM-DD".into()),
                },
                "RU" => ru = RuleFlags::parse(value),
                "CV" => match cube_log2(value) {
                    Some(log2) => record.auto_doubles = log2,
                    None => self.bad_value(game, 0, "CV", value, cube_value_reason()),
                },
                "RE" => match parse_result(value) {
                    Some(result) => record.result = Some(result),
                    None => self.bad_value(
                        game,
                        0,
                        "RE",
                        value,
                        "not a result such as W+2 or B+1R".into(),
                    ),
                },
                "GS" => record.stored_statistics = Some(property.values.clone()),
                _ if SILENT_ROOT.contains(&ident.as_str()) => {}
                _ if NODE_ONLY.contains(&ident.as_str()) => {
                    self.ignored(game, 0, &ident, "not read in a game's root node")
                }
                _ => self.unknown(game, 0, &property.ident),
            }
        }

        if length > i64::from(MAX_MATCH_LENGTH) {
            return Err(SgfReadError::BadMatchLength { game, length });
        }
        let length = length as u16;
        for (player, score) in scores.iter().enumerate() {
            let Some(text) = score else { continue };
            let n = atoi(text);
            if n >= 0 && (length == 0 || n < i64::from(length)) && n <= i64::from(u16::MAX) {
                record.score[player] = n as u16;
            } else {
                let ident = ["MI ws", "MI bs"][player];
                let reason = format!("a score must be below the match length ({length})");
                self.bad_value(game, 0, ident, text, reason);
            }
        }
        record.crawford = ru.crawford_game;
        let rules = if length == 0 {
            Rules {
                jacoby: ru.jacoby,
                ..Rules::money()
            }
        } else {
            Rules {
                crawford: ru.crawford,
                ..Rules::match_to(length)
            }
        };
        let these = MatchFacts {
            length,
            rules,
            variant: ru.variant,
            cube_used: !ru.no_cube,
        };
        match facts {
            None => {
                info.rules = these.rules.clone();
                info.variant = these.variant;
                info.cube_used = these.cube_used;
                for (slot, name) in info.players.iter_mut().zip(&names) {
                    *slot = name.clone().unwrap_or_default();
                }
                *facts = Some(these);
            }
            Some(facts) => {
                if facts.length != these.length {
                    self.inconsistent(
                        game,
                        format!(
                            "the match length is {} here, {} in the first game",
                            these.length, facts.length
                        ),
                    );
                } else if *facts != these {
                    self.inconsistent(game, "the rules (RU) differ from the first game's".into());
                }
                for (player, name) in names.iter().enumerate() {
                    if let Some(name) = name.as_ref().filter(|n| **n != info.players[player]) {
                        self.inconsistent(
                            game,
                            format!(
                                "player {player} is {name:?} here, {:?} in the first game",
                                info.players[player]
                            ),
                        );
                    }
                }
            }
        }
        Ok((record, ru.variant))
    }

    fn inconsistent(&mut self, game: usize, what: String) {
        self.warn(game, Some(0), SgfWarningKind::InconsistentMatch { what });
    }

    // -----------------------------------------------------------------------------------------
    // Other nodes

    fn node(
        &mut self,
        game_no: usize,
        index: usize,
        node: &Node,
        game: &mut GameRecord,
        tracker: &mut Tracker,
        open_setup: &mut bool,
    ) -> Result<(), SgfReadError> {
        let props = self.collect(game_no, index, node);

        if let Some((player, value)) = props.action {
            for (ident, present) in [
                ("AE/AW/AB", !props.edits.is_empty()),
                ("PL", props.turn.is_some()),
                ("CV", props.cube_value.is_some()),
                ("CP", props.cube_owner.is_some()),
                ("DI", props.dice.is_some()),
            ] {
                if present {
                    self.ignored(
                        game_no,
                        index,
                        ident,
                        "a set-up property in a node with a move",
                    );
                }
            }
            let entry = self.action(game_no, index, player, value, &props, tracker)?;
            game.entries.push(entry);
            *open_setup = false;
            return Ok(());
        }

        let analysis_props = props.analysis_idents();
        if !props.edits.is_empty() {
            let setup = self.setup(game_no, index, &props, tracker)?;
            for ident in &analysis_props {
                self.ignored(game_no, index, ident, "analysis of a set-up");
            }
            tracker.set_up(&setup);
            let mut entry = Entry::new(RecordAction::SetUp(setup));
            entry.comment = props.comment.clone();
            game.entries.push(entry);
            *open_setup = true;
            return Ok(());
        }

        let mut used_comment = false;
        if props.cube_value.is_some() || props.cube_owner.is_some() {
            let (log2, owner) = self.cube_changes(game_no, index, &props, tracker);
            let merged = match game.entries.last_mut() {
                Some(Entry {
                    action: RecordAction::SetUp(setup),
                    comment,
                    ..
                }) if *open_setup => {
                    setup.cube_log2 = log2;
                    setup.cube_owner = owner;
                    tracker.set_up(setup);
                    append_comment(comment, props.comment.as_deref());
                    true
                }
                _ => false,
            };
            if !merged {
                match tracker.setup_here(props.turn, log2, owner) {
                    Some(setup) => {
                        tracker.set_up(&setup);
                        let mut entry = Entry::new(RecordAction::SetUp(setup));
                        entry.comment = props.comment.clone();
                        game.entries.push(entry);
                        *open_setup = true;
                    }
                    None => {
                        for (ident, present) in [
                            ("CV", props.cube_value.is_some()),
                            ("CP", props.cube_owner.is_some()),
                        ] {
                            if present {
                                self.ignored(
                                    game_no,
                                    index,
                                    ident,
                                    "the board is not known here (an earlier move could not be played)",
                                );
                            }
                        }
                    }
                }
            }
            used_comment = true;
        }

        if let Some(text) = props.dice {
            let dice = parse_dice(text).ok_or_else(|| SgfReadError::BadDice {
                game: game_no,
                node: index,
                text: excerpt(text),
            })?;
            let player = props.turn.or(tracker.on_roll).unwrap_or(Player::Zero);
            let mut analysis = ActionAnalysis::default();
            self.luck(game_no, index, &props, player, &mut analysis);
            let plain = analysis == ActionAnalysis::default();
            let comment = if used_comment {
                None
            } else {
                props.comment.clone()
            };
            let merged = match game.entries.last_mut() {
                Some(Entry {
                    action: RecordAction::SetUp(setup),
                    ..
                }) if *open_setup
                    && plain
                    && comment.is_none()
                    && setup.dice.is_none()
                    && setup.on_roll == player =>
                {
                    setup.dice = Some(dice);
                    true
                }
                _ => false,
            };
            if !merged {
                let mut entry = Entry::new(RecordAction::Roll { player, dice });
                entry.comment = comment;
                entry.analysis = boxed(analysis);
                game.entries.push(entry);
                *open_setup = false;
            }
            tracker.on_roll = Some(player);
            for ident in analysis_props
                .iter()
                .filter(|i| !matches!(i.as_str(), "LU" | "GB" | "GW"))
            {
                self.ignored(game_no, index, ident, "analysis of a roll without a move");
            }
            return Ok(());
        }

        if let Some(turn) = props.turn {
            tracker.on_roll = Some(turn);
        }
        if used_comment {
            return Ok(());
        }
        for ident in &analysis_props {
            self.ignored(game_no, index, ident, "a node without an action");
        }
        if props.comment.is_some() {
            self.warn(game_no, Some(index), SgfWarningKind::CommentIgnored);
        }
        Ok(())
    }

    /// Sorts a node's properties out.
    fn collect<'a>(&mut self, game: usize, index: usize, node: &'a Node) -> NodeProps<'a> {
        let mut props = NodeProps::default();
        for property in &node.properties {
            let ident = property.canonical_ident();
            let value = property.value();
            match ident.as_str() {
                "B" | "W" => {
                    let player = if ident == "B" {
                        Player::One
                    } else {
                        Player::Zero
                    };
                    if props.action.is_some() {
                        self.warn(
                            game,
                            Some(index),
                            SgfWarningKind::SecondAction {
                                value: excerpt(value),
                            },
                        );
                    } else {
                        props.action = Some((player, value));
                    }
                }
                "AE" | "AW" | "AB" => props.edits.push(property),
                "PL" => match value.chars().next() {
                    Some('B') => props.turn = Some(Player::One),
                    Some('W') => props.turn = Some(Player::Zero),
                    _ => self.bad_value(game, index, "PL", value, "not B or W".into()),
                },
                "CV" => props.cube_value = Some(value),
                "CP" => props.cube_owner = Some(value),
                "DI" => props.dice = Some(value),
                "DA" => props.cube = Some(value),
                "A" => props.moves = Some(property),
                "MR" => props.marks = Some(value),
                "CR" => props.cube_mark = true,
                "C" => props.comment = non_empty(text(value)),
                "BM" => props.skill = Some(bad_mark(value)),
                "DO" => props.skill = Some(Skill::Doubtful),
                "BC" => props.cube_skill = Some(bad_mark(value)),
                "DC" => props.cube_skill = Some(Skill::Doubtful),
                "LU" => props.luck = Some(value),
                // Seen from Black: good for Black is lucky, good for White unlucky.
                "GB" => {
                    props.luck_mark = Some(if value.starts_with('2') {
                        Luck::VeryLucky
                    } else {
                        Luck::Lucky
                    })
                }
                "GW" => {
                    props.luck_mark = Some(if value.starts_with('2') {
                        Luck::VeryUnlucky
                    } else {
                        Luck::Unlucky
                    })
                }
                _ if SILENT_NODE.contains(&ident.as_str()) => {}
                _ if ROOT_ONLY.contains(&ident.as_str()) => {
                    self.ignored(game, index, &ident, "only read in a game's root node")
                }
                _ => self.unknown(game, index, &property.ident),
            }
        }
        props
    }

    /// A move or cube action node.
    fn action(
        &mut self,
        game: usize,
        index: usize,
        player: Player,
        value: &str,
        props: &NodeProps,
        tracker: &mut Tracker,
    ) -> Result<Entry, SgfReadError> {
        let mut analysis = ActionAnalysis::default();
        let cube_action = match value {
            "double" => Some(if tracker.doubled_by(player.other()) {
                RecordAction::Beaver { player }
            } else {
                RecordAction::Double { player }
            }),
            "take" => Some(RecordAction::Take { player }),
            "drop" => Some(RecordAction::Drop { player }),
            _ => None,
        };
        let action = if let Some(action) = cube_action {
            self.cube_analysis(game, index, props, &mut analysis);
            analysis.skill = props.skill.unwrap_or_default();
            for (ident, present) in [
                ("A", props.moves.is_some()),
                ("MR", props.marks.is_some()),
                ("LU", props.luck.is_some()),
                ("GB/GW", props.luck_mark.is_some()),
                ("BC/DC", props.cube_skill.is_some()),
            ] {
                if present {
                    self.ignored(game, index, ident, "not read on a cube action");
                }
            }
            tracker.cube_action(&action);
            action
        } else {
            let (dice, letters) = split_dice(value).ok_or_else(|| SgfReadError::BadDice {
                game,
                node: index,
                text: excerpt(value),
            })?;
            let mv =
                parse_move_letters(player, letters).map_err(|reason| SgfReadError::BadMove {
                    game,
                    node: index,
                    text: excerpt(value),
                    reason,
                })?;
            self.cube_analysis(game, index, props, &mut analysis);
            if let Some(property) = props.moves {
                match values::parse_move_analysis(
                    player,
                    &property.values,
                    props.marks,
                    &mut self.version,
                ) {
                    Ok(moves) => analysis.moves = Some(moves),
                    Err(reason) => {
                        let value = property.values.join("][");
                        self.bad_value(game, index, "A", &value, reason);
                    }
                }
            }
            self.luck(game, index, props, player, &mut analysis);
            analysis.skill = props.skill.unwrap_or_default();
            analysis.cube_skill = props.cube_skill.unwrap_or_default();
            if !tracker.play(player, &mv) {
                self.warn(
                    game,
                    Some(index),
                    SgfWarningKind::UnplayableMove {
                        value: excerpt(value),
                    },
                );
            }
            RecordAction::Move { player, dice, mv }
        };
        Ok(Entry {
            action,
            comment: props.comment.clone(),
            analysis: boxed(analysis),
        })
    }

    fn cube_analysis(
        &mut self,
        game: usize,
        index: usize,
        props: &NodeProps,
        analysis: &mut ActionAnalysis,
    ) {
        let Some(text) = props.cube else {
            if props.cube_mark {
                self.ignored(
                    game,
                    index,
                    "CR",
                    "a rollout mark without a cube analysis (DA)",
                );
            }
            return;
        };
        match values::parse_cube_analysis(text, &mut self.version) {
            Ok(cube) => {
                analysis.cube = Some(cube);
                analysis.cube_rollout_mark = props.cube_mark;
            }
            Err(reason) => self.bad_value(game, index, "DA", text, reason),
        }
    }

    /// `LU` and `GB`/`GW` of a roll by `player`. The marks are written from Black's side: a
    /// mark good for Black is lucky for Black and unlucky for White.
    fn luck(
        &mut self,
        game: usize,
        index: usize,
        props: &NodeProps,
        player: Player,
        analysis: &mut ActionAnalysis,
    ) {
        if let Some(text) = props.luck {
            match values::parse_luck(text) {
                Ok(luck) => analysis.luck = Some(luck),
                Err(reason) => self.bad_value(game, index, "LU", text, reason),
            }
        }
        if let Some(mark) = props.luck_mark {
            analysis.luck_mark = match player {
                Player::One => mark,
                Player::Zero => flip(mark),
            };
        }
    }

    /// The set-up of a node with `AE`/`AW`/`AB`.
    fn setup(
        &mut self,
        game: usize,
        index: usize,
        props: &NodeProps,
        tracker: &Tracker,
    ) -> Result<Setup, SgfReadError> {
        let mut cleared = [false; 25];
        let mut edits = Vec::with_capacity(props.edits.len());
        for property in &props.edits {
            let ident = property.canonical_ident();
            let mut counts = [0u32; 25];
            for value in &property.values {
                if !point_list(value, &mut counts) {
                    let reason = "not a point letter a..y or a range such as a:y".to_owned();
                    self.bad_value(game, index, &ident, value, reason);
                }
            }
            if ident == "AE" {
                for (flag, &count) in cleared.iter_mut().zip(&counts) {
                    *flag |= count > 0;
                }
            }
            edits.push((ident, counts));
        }
        let mut board = match tracker.board {
            Some(board) => board,
            None => {
                if !cleared.iter().all(|&c| c) {
                    self.ignored(
                        game,
                        index,
                        "AE",
                        "it does not clear the whole board and the board before it is not known; \
                         the set-up starts from an empty board",
                    );
                }
                [[0u8; 25]; 2]
            }
        };
        for (ident, counts) in edits {
            for (i, &count) in counts.iter().enumerate() {
                // Letter index i is White's point i + 1 and Black's point 24 - i; y is either bar.
                let black = if i == 24 { 24 } else { 23 - i };
                match ident.as_str() {
                    "AE" if count > 0 => {
                        board[0][i] = 0;
                        board[1][black] = 0;
                    }
                    "AW" => board[0][i] = saturate(board[0][i], count),
                    "AB" => board[1][black] = saturate(board[1][black], count),
                    _ => {}
                }
            }
        }
        let on_roll = props.turn.or(tracker.on_roll).unwrap_or(Player::Zero);
        let position =
            Position::from_sides(&board[on_roll.index()], &board[on_roll.other().index()])
                .map_err(|e| SgfReadError::BadSetup {
                    game,
                    node: index,
                    reason: match e {
                        crate::rules::position::PositionError::TooManyCheckers { side, count } => {
                            let player = if side == Side::Player {
                                on_roll
                            } else {
                                on_roll.other()
                            };
                            let colour = ["White", "Black"][player.index()];
                            format!("{colour} has {count} checkers; at most 15 are allowed")
                        }
                        other => other.to_string(),
                    },
                })?;
        let (cube_log2, cube_owner) = self.cube_changes(game, index, props, tracker);
        let dice = match props.dice {
            Some(text) => Some(parse_dice(text).ok_or_else(|| SgfReadError::BadDice {
                game,
                node: index,
                text: excerpt(text),
            })?),
            None => None,
        };
        Ok(Setup {
            position,
            on_roll,
            cube_log2,
            cube_owner,
            dice,
        })
    }

    /// The cube after the node's `CV` and `CP` (unreadable values are ignored with a warning).
    fn cube_changes(
        &mut self,
        game: usize,
        index: usize,
        props: &NodeProps,
        tracker: &Tracker,
    ) -> (u8, CubeOwner) {
        let mut log2 = tracker.cube_log2;
        let mut owner = tracker.cube_owner;
        if let Some(text) = props.cube_value {
            match cube_log2(text) {
                Some(l) => log2 = l,
                None => self.bad_value(game, index, "CV", text, cube_value_reason()),
            }
        }
        if let Some(text) = props.cube_owner {
            match text.chars().next() {
                Some('c') => owner = CubeOwner::Centered,
                Some('w') => owner = CubeOwner::Owned(Player::Zero),
                Some('b') => owner = CubeOwner::Owned(Player::One),
                _ => self.bad_value(game, index, "CP", text, "not c, w or b".into()),
            }
        }
        (log2, owner)
    }
}

/// The properties of a non-root node, sorted out. For repeated properties the last counts, as
/// in GNU Backgammon, except for the move (the first counts).
#[derive(Default)]
struct NodeProps<'a> {
    action: Option<(Player, &'a str)>,
    edits: Vec<&'a Property>,
    turn: Option<Player>,
    cube_value: Option<&'a str>,
    cube_owner: Option<&'a str>,
    dice: Option<&'a str>,
    cube: Option<&'a str>,
    cube_mark: bool,
    moves: Option<&'a Property>,
    marks: Option<&'a str>,
    comment: Option<String>,
    skill: Option<Skill>,
    cube_skill: Option<Skill>,
    luck: Option<&'a str>,
    /// From Black's side (see [`Reader::luck`]).
    luck_mark: Option<Luck>,
}

impl NodeProps<'_> {
    fn analysis_idents(&self) -> Vec<String> {
        [
            ("DA", self.cube.is_some()),
            ("CR", self.cube_mark),
            ("A", self.moves.is_some()),
            ("MR", self.marks.is_some()),
            ("BM/DO", self.skill.is_some()),
            ("BC/DC", self.cube_skill.is_some()),
            ("LU", self.luck.is_some()),
            ("GB", self.luck_mark.is_some()),
        ]
        .into_iter()
        .filter(|(_, present)| *present)
        .map(|(ident, _)| ident.to_owned())
        .collect()
    }
}

/// What the reader follows of a game: the board, who is on roll, the cube and a pending double.
struct Tracker {
    /// Each player's checkers in his own numbering (index 0..=23 = points 1..=24, 24 = bar);
    /// `None` once a move could not be played.
    board: Option<[[u8; 25]; 2]>,
    on_roll: Option<Player>,
    cube_log2: u8,
    cube_owner: CubeOwner,
    /// The double on offer: who offered it last, who was doubled first, how many beavers.
    pending: Option<(Player, Player, u8)>,
}

impl Tracker {
    fn new(variant: Variant, auto_doubles: u8) -> Tracker {
        let mut side = [0u8; 25];
        match variant {
            Variant::Standard => {
                side[5] = 5;
                side[7] = 3;
                side[12] = 5;
                side[23] = 2;
            }
            Variant::Nackgammon => {
                side[5] = 4;
                side[7] = 3;
                side[12] = 4;
                side[22] = 2;
                side[23] = 2;
            }
            Variant::Hypergammon(n) => {
                for point in 0..usize::from(n.min(3)) {
                    side[23 - point] = 1;
                }
            }
        }
        Tracker {
            board: Some([side, side]),
            on_roll: None,
            cube_log2: auto_doubles,
            cube_owner: CubeOwner::Centered,
            pending: None,
        }
    }

    /// Whether `player` has a double on offer.
    fn doubled_by(&self, player: Player) -> bool {
        self.pending.is_some_and(|(doubler, ..)| doubler == player)
    }

    fn cube_action(&mut self, action: &RecordAction) {
        match *action {
            RecordAction::Double { player } => {
                self.pending = Some((player, player.other(), 0));
                self.on_roll = Some(player);
            }
            RecordAction::Beaver { player } => {
                if let Some((_, taker, beavers)) = self.pending {
                    self.pending = Some((player, taker, beavers.saturating_add(1)));
                }
            }
            RecordAction::Take { .. } => {
                if let Some((_, taker, beavers)) = self.pending.take() {
                    self.cube_log2 = self
                        .cube_log2
                        .saturating_add(1)
                        .saturating_add(beavers)
                        .min(MAX_CUBE_LOG2);
                    self.cube_owner = CubeOwner::Owned(taker);
                }
            }
            _ => self.pending = None,
        }
    }

    /// Plays `mv` for `player`; false if it cannot be played on the board followed (from then
    /// on the board is unknown).
    fn play(&mut self, player: Player, mv: &Move) -> bool {
        self.on_roll = Some(player.other());
        self.pending = None;
        let Some(board) = &mut self.board else {
            return true;
        };
        let (me, you) = (player.index(), player.other().index());
        let after = Position::from_sides(&board[me], &board[you])
            .ok()
            .and_then(|before| play_steps(&before, mv.steps()));
        match after {
            Some(after) => {
                board[me] = after.side(Side::Player);
                board[you] = after.side(Side::Opponent);
                true
            }
            None => {
                self.board = None;
                false
            }
        }
    }

    fn set_up(&mut self, setup: &Setup) {
        let mut board = [[0u8; 25]; 2];
        board[setup.on_roll.index()] = setup.position.side(Side::Player);
        board[setup.on_roll.other().index()] = setup.position.side(Side::Opponent);
        self.board = Some(board);
        self.on_roll = Some(setup.on_roll);
        self.cube_log2 = setup.cube_log2;
        self.cube_owner = setup.cube_owner;
        self.pending = None;
    }

    /// A set-up of the board followed, with a new cube, if the board is known.
    fn setup_here(
        &self,
        turn: Option<Player>,
        cube_log2: u8,
        cube_owner: CubeOwner,
    ) -> Option<Setup> {
        let board = self.board?;
        let on_roll = turn.or(self.on_roll).unwrap_or(Player::Zero);
        let position =
            Position::from_sides(&board[on_roll.index()], &board[on_roll.other().index()]).ok()?;
        Some(Setup {
            position,
            on_roll,
            cube_log2,
            cube_owner,
            dice: None,
        })
    }
}

// ---------------------------------------------------------------------------------------------
// Values

/// The `RU` flags.
#[derive(Default)]
struct RuleFlags {
    no_cube: bool,
    crawford: bool,
    crawford_game: bool,
    jacoby: bool,
    variant: Variant,
}

impl RuleFlags {
    fn parse(value: &str) -> RuleFlags {
        let mut flags = RuleFlags::default();
        for word in value.split(':') {
            match word {
                "NoCube" => flags.no_cube = true,
                "Crawford" => flags.crawford = true,
                "CrawfordGame" => flags.crawford_game = true,
                "Jacoby" => flags.jacoby = true,
                "Nackgammon" => flags.variant = Variant::Nackgammon,
                "Hypergammon1" => flags.variant = Variant::Hypergammon(1),
                "Hypergammon2" => flags.variant = Variant::Hypergammon(2),
                "Hypergammon3" => flags.variant = Variant::Hypergammon(3),
                _ => {}
            }
        }
        flags
    }
}

/// C's `atoi`: optional blanks and sign, then digits; 0 if there are none. Saturates.
pub(super) fn atoi(text: &str) -> i64 {
    let text = text.trim_start();
    let (negative, digits) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let mut n: i64 = 0;
    for b in digits.bytes().take_while(u8::is_ascii_digit) {
        n = n.saturating_mul(10).saturating_add(i64::from(b - b'0'));
    }
    if negative {
        -n
    } else {
        n
    }
}

/// The log2 of a cube value `1, 2, 4, ... 2^15`.
fn cube_log2(text: &str) -> Option<u8> {
    let n = atoi(text);
    (0..=MAX_CUBE_LOG2).find(|&log2| n == 1i64 << log2)
}

fn cube_value_reason() -> String {
    format!(
        "a cube value is a power of two from 1 to {}",
        1u32 << MAX_CUBE_LOG2
    )
}

/// `W+2`, `B+1R`: winner, points (at least 1), resigned.
fn parse_result(text: &str) -> Option<GameResult> {
    let mut chars = text.chars();
    let winner = match chars.next()?.to_ascii_uppercase() {
        'W' => Player::Zero,
        'B' => Player::One,
        _ => return None,
    };
    let rest = chars.as_str().strip_prefix('+')?;
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let points = rest[..digits]
        .parse::<u32>()
        .unwrap_or(if digits > 0 { u32::MAX } else { 1 })
        .max(1);
    let resigned = rest[digits..]
        .chars()
        .next()
        .is_some_and(|c| c.eq_ignore_ascii_case(&'R'));
    Some(GameResult {
        winner,
        points,
        resigned,
    })
}

/// `YYYY-MM-DD` (any number of digits each, as GNU Backgammon reads it), written back with
/// four, two and two digits.
pub(super) fn parse_date(text: &str) -> Option<String> {
    let mut parts = text.trim_start().splitn(3, '-');
    let mut field = |max: u32| -> Option<u32> {
        let part = parts.next()?.trim_start();
        let digits = part.bytes().take_while(u8::is_ascii_digit).count();
        part[..digits].parse().ok().filter(|&n| n <= max)
    };
    let (year, month, day) = (field(9999)?, field(99)?, field(99)?);
    Some(format!("{year:04}-{month:02}-{day:02}"))
}

/// The dice at the start of a move value and the letters after them.
fn split_dice(value: &str) -> Option<(Dice, &str)> {
    let dice = parse_dice(value)?;
    // The first two bytes are ASCII digits, so index 2 is a character boundary.
    Some((dice, &value[2..]))
}

/// Two digits 1..6 at the start of `text` (`DI[53]`).
fn parse_dice(text: &str) -> Option<Dice> {
    let bytes = text.as_bytes();
    let die = |i: usize| -> Option<u8> {
        let b = *bytes.get(i)?;
        (b'1'..=b'6').contains(&b).then(|| b - b'0')
    };
    Dice::new(die(0)?, die(1)?).ok()
}

/// Adds the counts of one `AE`/`AW`/`AB` value to `counts` (index 0..=24 for `a`..=`y`): a
/// letter, or a range `from:to` with `from` before `to`. False if the value is neither.
fn point_list(value: &str, counts: &mut [u32; 25]) -> bool {
    let letter = |c: char| ('a'..='y').contains(&c).then(|| c as usize - 'a' as usize);
    let chars: Vec<char> = value.chars().collect();
    match chars.as_slice() {
        [c] => match letter(*c) {
            Some(i) => {
                counts[i] += 1;
                true
            }
            None => false,
        },
        [from, ':', to] => match (letter(*from), letter(*to)) {
            (Some(a), Some(b)) if a < b => {
                for count in &mut counts[a..=b] {
                    *count += 1;
                }
                true
            }
            _ => false,
        },
        _ => false,
    }
}

fn saturate(current: u8, add: u32) -> u8 {
    u8::try_from(u32::from(current).saturating_add(add)).unwrap_or(u8::MAX)
}

fn bad_mark(value: &str) -> Skill {
    if value.starts_with('2') {
        Skill::VeryBad
    } else {
        Skill::Bad
    }
}

fn flip(luck: Luck) -> Luck {
    match luck {
        Luck::VeryUnlucky => Luck::VeryLucky,
        Luck::Unlucky => Luck::Lucky,
        Luck::None => Luck::None,
        Luck::Lucky => Luck::Unlucky,
        Luck::VeryLucky => Luck::VeryUnlucky,
    }
}

/// Text as GNU Backgammon reads comments and match information: NUL bytes dropped, every ASCII
/// whitespace character other than a line break turned into a blank.
pub(super) fn text(value: &str) -> String {
    value
        .chars()
        .filter(|&c| c != '\0')
        .map(|c| {
            if matches!(c, '\t' | '\r' | '\x0B' | '\x0C') {
                ' '
            } else {
                c
            }
        })
        .collect()
}

/// A player's name: as written, without NUL bytes.
pub(super) fn name(value: &str) -> String {
    value.chars().filter(|&c| c != '\0').collect()
}

fn non_empty(text: String) -> Option<String> {
    (!text.is_empty()).then_some(text)
}

fn set_text(slot: &mut Option<String>, value: &str) {
    if let Some(text) = non_empty(text(value)) {
        *slot = Some(text);
    }
}

fn append_comment(slot: &mut Option<String>, more: Option<&str>) {
    if let Some(more) = more {
        match slot {
            Some(text) => {
                text.push('\n');
                text.push_str(more);
            }
            None => *slot = Some(more.to_owned()),
        }
    }
}

fn boxed(analysis: ActionAnalysis) -> Option<Box<ActionAnalysis>> {
    (analysis != ActionAnalysis::default()).then(|| Box::new(analysis))
}

/// The number of game trees off the main line.
fn count_side_lines(tree: &GameTree) -> usize {
    std::iter::successors(Some(tree), |t| t.variations.first())
        .map(|t| t.variations.len().saturating_sub(1))
        .sum()
}

/// A value shortened for a message.
fn excerpt(value: &str) -> String {
    const MAX: usize = 40;
    match value.char_indices().nth(MAX) {
        Some((end, _)) => format!("{}...", &value[..end]),
        None => value.to_owned(),
    }
}
