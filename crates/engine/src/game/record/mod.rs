//! The record of a whole match or money session: what files hold, what analysis annotates, what
//! the game-record pane, statistics and the equity graph show.
//!
//! A [`MatchRecord`] is plain data: the match information ([`MatchInfo`]) and its games
//! ([`GameRecord`]), each a list of [`Entry`]s — one per action, in the order they happened, with
//! a comment and an analysis slot. It holds exactly what GNU Backgammon's match files hold, so SGF
//! and `.mat` files convert to and from it without loss (where the target format can hold it).
//!
//! A record says what happened; whether it could happen is checked by replaying it through the
//! match state machine ([`crate::game::Game`]), which gives the position, cube and score before
//! and after every action ([`MatchRecord::replay`], [`replay`]). A [`crate::game::Game`] writes
//! its record as it is played ([`crate::game::Game::record`]) and goes on from a record's end
//! ([`crate::game::Game::from_record`]).
//!
//! Players are numbered as everywhere in the engine: [`Player::Zero`] is GNU Backgammon's player
//! 0 (White in SGF, `O` on the ASCII board, the left column of a `.mat` file), [`Player::One`]
//! player 1 (Black, `X`, the right column).

pub mod analysis;
pub mod replay;

pub use analysis::ActionAnalysis;
pub use replay::{
    ActionFault, LenientReplay, Replay, ReplayError, ReplayWarning, ReplayedGame, Snapshot,
};

use crate::game::match_state::{CubeOwner, Player, Resignation};
use crate::game::Rules;
use crate::rules::dice::Dice;
use crate::rules::moves::Move;
use crate::rules::position::Position;

/// The game played: standard backgammon, or one of the variants GNU Backgammon knows. Cubeful
/// plays and replays only standard backgammon; the others are kept so that files naming them
/// can be reported clearly.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Variant {
    #[default]
    Standard,
    Nackgammon,
    /// Hypergammon with 1, 2 or 3 checkers a side.
    Hypergammon(u8),
}

/// Everything about a match that is not a game: players, length, rules and the match
/// information GNU Backgammon keeps (all free text, as written in the file).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MatchInfo {
    /// Names of player 0 and player 1.
    pub players: [String; 2],
    /// Ratings of player 0 and player 1, free text (SGF `WR`/`BR`).
    pub ratings: [Option<String>; 2],
    /// Match length, Crawford rule, Jacoby rule, beavers. `match_length == 0` is a money session.
    pub rules: Rules,
    pub variant: Variant,
    /// The cube is in use (GNU Backgammon's `NoCube` rule turns it off).
    pub cube_used: bool,
    /// Date of the match, `YYYY-MM-DD` when known.
    pub date: Option<String>,
    pub event: Option<String>,
    pub round: Option<String>,
    pub place: Option<String>,
    pub annotator: Option<String>,
    /// Who transcribed the match (`.mat` `Transcriber`).
    pub transcriber: Option<String>,
    /// The program that wrote the file (SGF `AP`), as read; written files name Cubeful.
    pub application: Option<String>,
    /// Comment on the whole match.
    pub comment: Option<String>,
}

impl MatchInfo {
    /// Match information for a match (or, with `rules.match_length == 0`, a money session)
    /// between two players, the cube in use and nothing else known.
    pub fn new(players: [String; 2], rules: Rules) -> MatchInfo {
        MatchInfo {
            players,
            rules,
            cube_used: true,
            ..MatchInfo::default()
        }
    }
}

/// A whole match or money session.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MatchRecord {
    pub info: MatchInfo,
    /// The games in the order played. The last one may be unfinished.
    pub games: Vec<GameRecord>,
}

/// One game of a match.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameRecord {
    /// The score of player 0 and player 1 when the game started.
    pub score: [u16; 2],
    /// This game is the Crawford game.
    pub crawford: bool,
    /// Automatic doubles at the start of the game (money play); the cube starts at
    /// `2^auto_doubles`. Usually 0.
    pub auto_doubles: u8,
    /// The actions, in order.
    pub entries: Vec<Entry>,
    /// How the game ended, when it has.
    pub result: Option<GameResult>,
    /// Comment on the whole game.
    pub comment: Option<String>,
    /// Statistics as another program stored them (GNU Backgammon's SGF `GS` values), kept
    /// verbatim until the game is analysed again.
    pub stored_statistics: Option<Vec<String>>,
}

/// The end of a game, as recorded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameResult {
    pub winner: Player,
    /// Points won, cube included.
    pub points: u32,
    /// The game ended by an accepted resignation.
    pub resigned: bool,
}

/// One action of a game with what is said about it.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub action: RecordAction,
    /// A comment on this action (annotator's text).
    pub comment: Option<String>,
    /// The analysis of this action, once analysed (by Cubeful or read from a file).
    pub analysis: Option<Box<ActionAnalysis>>,
}

impl Entry {
    /// An entry without comment or analysis.
    pub fn new(action: RecordAction) -> Entry {
        Entry {
            action,
            comment: None,
            analysis: None,
        }
    }
}

/// Something that happened in a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordAction {
    /// `player` rolled `dice` and played `mv` (no steps when the roll could not be played). The
    /// opening roll is recorded this way too: the starter plays both dice.
    Move {
        player: Player,
        dice: Dice,
        mv: Move,
    },
    /// `player` rolled `dice` and has not moved: he resigned after rolling, or the record stops
    /// here (a game in progress, an illegal move left out of an import).
    Roll { player: Player, dice: Dice },
    /// `player` offered the cube.
    Double { player: Player },
    /// `player` accepted the cube.
    Take { player: Player },
    /// `player` refused the cube and lost the game.
    Drop { player: Player },
    /// `player` took the cube and at once redoubled it, keeping it (money play with beavers; a
    /// beaver answering a beaver is a raccoon).
    Beaver { player: Player },
    /// `player` offered to resign.
    Resign {
        player: Player,
        resignation: Resignation,
    },
    /// `player` accepted the opponent's resignation.
    AcceptResignation { player: Player },
    /// `player` rejected the opponent's resignation.
    RejectResignation { player: Player },
    /// The position was edited: the board, cube and turn are set to these.
    SetUp(Setup),
}

impl RecordAction {
    /// The player who acted (for a set-up, the player on roll after it).
    pub fn player(&self) -> Player {
        match self {
            RecordAction::Move { player, .. }
            | RecordAction::Roll { player, .. }
            | RecordAction::Double { player }
            | RecordAction::Take { player }
            | RecordAction::Drop { player }
            | RecordAction::Beaver { player }
            | RecordAction::Resign { player, .. }
            | RecordAction::AcceptResignation { player }
            | RecordAction::RejectResignation { player } => *player,
            RecordAction::SetUp(setup) => setup.on_roll,
        }
    }
}

/// An edited position: the board, the cube and who is on roll (with the dice if they are set).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The checkers, seen from `on_roll`.
    pub position: Position,
    pub on_roll: Player,
    /// log2 of the cube value.
    pub cube_log2: u8,
    pub cube_owner: CubeOwner,
    /// The dice, if the player on roll has rolled.
    pub dice: Option<Dice>,
}
