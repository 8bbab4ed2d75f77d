//! What the terminal session prints: event messages in the style of GNU Backgammon, the board,
//! the score, and the JSON documents of `show --json`.

use cubeful_engine::formats::ascii_board;
use cubeful_engine::game::{resignation_name, Decision, Ending, Event, Game};
use cubeful_engine::{
    gnubg_id, match_id, position_id, xgid, CubeOwner, Player, Position, Side, WinKind,
};
use serde::Serialize;

/// The names of player 0 (O) and player 1 (X).
pub type Names = [String; 2];

fn name(names: &Names, p: Player) -> &str {
    &names[p.index()]
}

fn points(n: u32) -> String {
    if n == 1 {
        "1 point".to_string()
    } else {
        format!("{n} points")
    }
}

/// The message for one event, if it deserves one.
pub fn event_line(event: &Event, names: &Names, game: &Game) -> Option<String> {
    let n = |p: Player| name(names, p).to_string();
    Some(match event {
        Event::GameStarted {
            number,
            score,
            crawford,
        } => {
            let what = if game.rules().is_money() {
                format!("Game {number} of the money session")
            } else {
                format!(
                    "Game {number} of the {}-point match, score {} {}, {} {}{}",
                    game.rules().match_length,
                    n(Player::Zero),
                    score[0],
                    n(Player::One),
                    score[1],
                    if *crawford { " (Crawford game)" } else { "" }
                )
            };
            format!("{what}.")
        }
        Event::OpeningTie { die } => format!("Both players roll {die}: rolling again."),
        Event::OpeningRoll { dice, starter } => format!(
            "{} rolls {}, {} rolls {}: {} starts.",
            n(Player::Zero),
            dice.first(),
            n(Player::One),
            dice.second(),
            n(*starter)
        ),
        Event::Rolled { player, dice } => format!("{} rolls {dice}.", n(*player)),
        Event::Moved { player, text, .. } => format!("{} moves {text}.", n(*player)),
        Event::CannotMove { player, dice } => {
            format!("{} rolls {dice} and cannot move.", n(*player))
        }
        Event::Doubled { player, cube } => format!("{} doubles to {cube}.", n(*player)),
        Event::Took { player, cube } => format!("{} accepts the cube at {cube}.", n(*player)),
        Event::Beavered {
            player,
            cube,
            raccoon,
        } => format!(
            "{} {}: accepts and immediately redoubles to {cube}.",
            n(*player),
            if *raccoon { "raccoons" } else { "beavers" }
        ),
        Event::Dropped { player, points: p } => format!(
            "{} refuses the cube and gives up {}.",
            n(*player),
            points(*p)
        ),
        Event::ResignationOffered {
            player,
            resignation,
        } => format!(
            "{} offers to resign {}.",
            n(*player),
            resignation_name(*resignation)
        ),
        Event::ResignationAccepted { player, .. } => {
            format!("{} accepts the resignation.", n(*player))
        }
        Event::ResignationRejected { player, .. } => {
            format!("{} rejects the resignation.", n(*player))
        }
        Event::GameOver(outcome) => {
            let what = match outcome.ending {
                Ending::BearOff(WinKind::Single) => "a single game",
                Ending::BearOff(WinKind::Gammon) => "a gammon",
                Ending::BearOff(WinKind::Backgammon) => "a backgammon",
                Ending::Dropped => "the game (double refused)",
                Ending::Resigned(r) => resignation_name(r),
            };
            let jacoby = if outcome.jacoby {
                " (Jacoby rule: the cube was never turned)"
            } else {
                ""
            };
            format!(
                "{} wins {what} and {}{jacoby}.\n{}",
                n(outcome.winner),
                points(outcome.points),
                score_line(game, names)
            )
        }
        Event::MatchOver { winner, .. } => format!("{} has won the match.", n(*winner)),
    })
}

/// "Score: cubeful 2, you 1 (3-point match)."
pub fn score_line(game: &Game, names: &Names) -> String {
    let s = game.score();
    let kind = if game.rules().is_money() {
        "money session".to_string()
    } else {
        let mut t = format!("{}-point match", game.rules().match_length);
        if game.is_crawford_game() && game.in_progress() {
            t.push_str(", Crawford game");
        } else if game.is_post_crawford() && game.match_winner().is_none() {
            t.push_str(", post-Crawford");
        }
        t
    };
    format!(
        "Score: {} {}, {} {} ({kind}).",
        names[0], s[0], names[1], s[1]
    )
}

/// Pip counts of player 0 and player 1.
pub fn pips(game: &Game) -> [u32; 2] {
    let p = game.position();
    let side = |player: Player| {
        if player == game.on_roll() {
            Side::Player
        } else {
            Side::Opponent
        }
    };
    [
        p.pip_count(side(Player::Zero)),
        p.pip_count(side(Player::One)),
    ]
}

fn per_player(game: &Game, f: impl Fn(&Position, Side) -> u8) -> [u8; 2] {
    let p = game.position();
    let side = |player: Player| {
        if player == game.on_roll() {
            Side::Player
        } else {
            Side::Opponent
        }
    };
    [f(&p, side(Player::Zero)), f(&p, side(Player::One))]
}

/// The board as GNU Backgammon draws it, with the pip counts below.
pub fn board(game: &Game, names: &Names) -> String {
    let state = game.match_state();
    let mut text = ascii_board::draw(&game.position(), &state, [&names[0], &names[1]]);
    let p = pips(game);
    text.push_str(&format!(
        " Pip counts: {} {}, {} {}\n",
        names[0], p[0], names[1], p[1]
    ));
    text
}

/// What the player to act is asked to do, as one line.
pub fn prompt_line(game: &Game, names: &Names) -> Option<String> {
    let n = |p: Player| name(names, p).to_string();
    Some(match game.decision() {
        Decision::NewGame => "Type 'new game' for the next game.".to_string(),
        Decision::MatchOver { .. } => {
            "The match is over: 'new match N' starts another.".to_string()
        }
        Decision::OpeningRoll => "Type 'roll' (or 'set dice AB') for the opening roll.".to_string(),
        Decision::Roll { player, may_double } => {
            if may_double {
                format!("{}: roll or double.", n(player))
            } else {
                format!("{}: roll.", n(player))
            }
        }
        Decision::Move { player, dice } => format!("{}: move {dice}.", n(player)),
        Decision::AnswerDouble {
            player,
            cube,
            may_beaver,
        } => format!(
            "{}: take (cube at {cube}), drop{}.",
            n(player),
            if may_beaver { " or beaver" } else { "" }
        ),
        Decision::AnswerResignation {
            player,
            resignation,
        } => format!(
            "{}: accept or reject the offer to resign {}.",
            n(player),
            resignation_name(resignation)
        ),
    })
}

fn colour(p: Player) -> &'static str {
    match p {
        Player::Zero => "O",
        Player::One => "X",
    }
}

/// `show board --json`.
#[derive(Serialize)]
pub struct BoardJson {
    position_id: String,
    match_id: String,
    gnubg_id: String,
    xgid: String,
    names: [String; 2],
    on_roll: &'static str,
    to_act: Option<&'static str>,
    decision: String,
    dice: Option<[u8; 2]>,
    cube: u32,
    cube_owner: &'static str,
    doubled: bool,
    resigned: Option<u8>,
    match_length: u16,
    score: [u16; 2],
    crawford: bool,
    post_crawford: bool,
    jacoby: bool,
    beavers: bool,
    game_over: bool,
    pips: [u32; 2],
    off: [u8; 2],
    bar: [u8; 2],
    board: String,
}

impl BoardJson {
    pub fn new(game: &Game, names: &Names) -> BoardJson {
        let position = game.position();
        let state = game.match_state();
        let representable = xgid::representable(&state);
        BoardJson {
            position_id: position_id::encode(&position),
            match_id: match_id::encode(&state),
            gnubg_id: gnubg_id::encode(&position, &state),
            xgid: xgid::encode(&position, &representable),
            names: names.clone(),
            on_roll: colour(state.on_roll),
            to_act: game.to_act().map(colour),
            decision: prompt_line(game, names).unwrap_or_default(),
            dice: state.dice.map(|d| [d.first(), d.second()]),
            cube: state.cube_value(),
            cube_owner: match state.cube_owner {
                CubeOwner::Centered => "centered",
                CubeOwner::Owned(p) => colour(p),
            },
            doubled: state.doubled,
            resigned: state.resigned.map(|r| r as u8),
            match_length: state.match_length,
            score: game.score(),
            crawford: game.is_crawford_game(),
            post_crawford: game.is_post_crawford(),
            jacoby: game.rules().jacoby_applies(),
            beavers: game.rules().beavers_apply(),
            game_over: game.outcome().is_some(),
            pips: pips(game),
            off: per_player(game, |p, s| p.off(s)),
            bar: per_player(game, |p, s| p.bar(s)),
            board: board(game, names),
        }
    }
}

/// `show score --json`.
#[derive(Serialize)]
pub struct ScoreJson {
    names: [String; 2],
    match_length: u16,
    score: [u16; 2],
    games: usize,
    crawford: bool,
    post_crawford: bool,
    winner: Option<&'static str>,
}

impl ScoreJson {
    pub fn new(game: &Game, names: &Names) -> ScoreJson {
        ScoreJson {
            names: names.clone(),
            match_length: game.rules().match_length,
            score: game.score(),
            games: game.games().len(),
            crawford: game.is_crawford_game(),
            post_crawford: game.is_post_crawford(),
            winner: game.match_winner().map(colour),
        }
    }
}

/// `show pipcount --json`.
#[derive(Serialize)]
pub struct PipsJson {
    names: [String; 2],
    pips: [u32; 2],
}

impl PipsJson {
    pub fn new(game: &Game, names: &Names) -> PipsJson {
        PipsJson {
            names: names.clone(),
            pips: pips(game),
        }
    }
}
