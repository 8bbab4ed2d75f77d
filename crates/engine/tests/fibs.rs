//! FIBS `board:` lines: a real, recorded GNU Backgammon external-player session and a set of board
//! examples, both read at run time from the shared reference folder (see `trace()` and
//! `example_boards()` below), must parse, round-trip byte for byte and describe consistent games;
//! random input must never make the parser panic.

use std::collections::HashMap;

use cubeful_engine::formats::fibs::{Direction, FibsBoard, FibsColour, FibsError, FibsGame};
use cubeful_engine::formats::notation::format_move;
use cubeful_engine::rules::movegen::play_steps;
use cubeful_engine::{
    legal_moves, CubeOwner, Dice, GameState, MatchState, Player, Position, Side, Step,
};
use proptest::prelude::*;

// ---------------------------------------------------------------------------------------------
// Reading the trace.

/// One message of the trace: `C>S` (GNU Backgammon to the external player) or `S>C`.
struct Message {
    from_gnubg: bool,
    text: String,
}

/// Decodes a Python bytes literal such as `b'roll\n'`.
fn decode_bytes_literal(literal: &str) -> String {
    let inner = literal
        .strip_prefix("b'")
        .and_then(|s| s.strip_suffix('\''))
        .unwrap_or_else(|| panic!("not a bytes literal: {literal}"));
    let mut out = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some('t') => out.push('\t'),
            Some('\\') => out.push('\\'),
            Some('\'') => out.push('\''),
            Some('x') => {
                let hex: String = chars.by_ref().take(2).collect();
                out.push(char::from(u8::from_str_radix(&hex, 16).unwrap()));
            }
            other => panic!("unknown escape {other:?} in {literal}"),
        }
    }
    out
}

fn trace() -> Vec<Message> {
    cubeful_testkit::read_shared("docs/gnubg-external-trace.txt")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let (direction, literal) = line.split_once(' ').expect("direction and bytes");
            Message {
                from_gnubg: match direction {
                    "C>S" => true,
                    "S>C" => false,
                    other => panic!("unknown direction {other}"),
                },
                text: decode_bytes_literal(literal),
            }
        })
        .collect()
}

/// The board lines GNU Backgammon sent, as sent (with `\n\0`).
fn trace_boards() -> Vec<String> {
    trace()
        .into_iter()
        .filter(|m| m.from_gnubg)
        .map(|m| m.text)
        .collect()
}

/// A board line without its line end.
fn bare(raw: &str) -> &str {
    raw.trim_end_matches(['\n', '\0'])
}

fn example_boards() -> Vec<String> {
    cubeful_testkit::read_shared("corpus/fibs/board_examples.txt")
        .lines()
        .filter(|l| l.starts_with("board:"))
        .map(str::to_string)
        .collect()
}

/// Pip counts computed straight from the FIBS fields: (yours, the opponent's).
fn raw_pips(b: &FibsBoard) -> (u32, u32) {
    let (mut yours, mut theirs) = (0u32, 0u32);
    for slot in 1..=24usize {
        let count = i32::from(b.board[slot]);
        // Your point number for this slot.
        let point = match b.direction {
            Direction::Down => slot as u32,
            Direction::Up => 25 - slot as u32,
        };
        if count.signum() == i32::from(b.colour.sign()) {
            yours += point * count.unsigned_abs();
        } else {
            theirs += (25 - point) * count.unsigned_abs();
        }
    }
    let (your_bar, their_bar) = match b.direction {
        Direction::Down => (25, 0),
        Direction::Up => (0, 25),
    };
    yours += 25 * u32::from(b.board[your_bar].unsigned_abs());
    theirs += 25 * u32::from(b.board[their_bar].unsigned_abs());
    (yours, theirs)
}

/// The side of `game.position` that belongs to `player`.
fn side_of(game: &FibsGame, player: Player) -> Side {
    if game.state.on_roll == player {
        Side::Player
    } else {
        Side::Opponent
    }
}

/// The position seen from "you" (Player::One).
fn your_view(game: &FibsGame) -> Position {
    if game.state.on_roll == FibsGame::YOU {
        game.position
    } else {
        game.position.swap()
    }
}

// ---------------------------------------------------------------------------------------------
// Every line parses, round-trips and converts.

#[test]
fn trace_has_the_expected_shape() {
    let messages = trace();
    assert_eq!(messages.len(), 208);
    assert_eq!(messages.iter().filter(|m| m.from_gnubg).count(), 104);
    // Strict alternation: every board gets exactly one answer.
    for (i, m) in messages.iter().enumerate() {
        assert_eq!(m.from_gnubg, i % 2 == 0, "message {i}");
    }
    for raw in trace_boards() {
        assert!(raw.ends_with("\n\0"), "{raw:?}");
    }
}

#[test]
fn every_board_line_round_trips_exactly() {
    let mut lines: Vec<String> = trace_boards();
    lines.extend(example_boards());
    assert_eq!(lines.len(), 106);
    let normalised = example_boards()[1].clone();
    for raw in &lines {
        let board = FibsBoard::parse(raw).unwrap_or_else(|e| panic!("{raw:?}: {e}"));
        board.validate().unwrap();
        let text = board.to_string();
        if raw.contains(": ") {
            // The forum post's spaced form normalises to the second example.
            assert_eq!(text, normalised);
        } else {
            assert_eq!(text, bare(raw));
        }
        assert_eq!(FibsBoard::parse(&text).unwrap(), board);
    }
}

#[test]
fn every_board_line_converts_to_a_consistent_game() {
    for raw in trace_boards().iter().chain(example_boards().iter()) {
        let board = FibsBoard::parse(raw).unwrap();
        let game = board.to_game().unwrap_or_else(|e| panic!("{raw:?}: {e}"));
        let s = &game.state;
        let you = side_of(&game, FibsGame::YOU);
        let them = side_of(&game, FibsGame::OPPONENT);
        let p = &game.position;

        // Checkers and pips agree with the raw fields.
        assert_eq!(
            (p.pip_count(you), p.pip_count(them)),
            raw_pips(&board),
            "{raw:?}"
        );
        assert_eq!(p.off(you), board.on_home, "{raw:?}");
        assert_eq!(p.off(them), board.opponent_on_home, "{raw:?}");
        assert!(p.result().is_none(), "{raw:?}");

        // Match state.
        assert_eq!(s.cube_value(), board.cube);
        assert_eq!(u32::from(s.score[1]), board.score);
        assert_eq!(u32::from(s.score[0]), board.opponent_score);
        assert_eq!(s.dice, board.dice.or(board.opponent_dice));
        assert_eq!(s.game_state, GameState::Playing);
        assert_eq!(s.on_roll == FibsGame::YOU, board.turn == Some(board.colour));
        assert_eq!(s.doubled, s.turn != s.on_roll);
        assert_eq!(game.name(Player::One), board.name);
        assert_eq!(game.name(Player::Zero), board.opponent);
        assert!(!s.crawford);
    }
}

#[test]
fn trace_lines_are_reproduced_by_the_writer() {
    for raw in trace_boards() {
        let game = FibsBoard::parse(&raw).unwrap().to_game().unwrap();
        let written = FibsBoard::from_game(&game).unwrap().to_string();
        assert_eq!(written, bare(&raw));
    }
}

#[test]
fn every_trace_board_is_for_the_external_player_to_act() {
    for raw in trace_boards() {
        let board = FibsBoard::parse(&raw).unwrap();
        assert_eq!(
            (board.colour, board.direction, board.home, board.bar),
            (FibsColour::O, Direction::Down, 0, 25)
        );
        assert_eq!(board.dice, board.opponent_dice, "{raw:?}");
        let game = board.to_game().unwrap();
        // The external player ("you", the positive checkers) is always the one to act.
        assert_eq!(game.state.turn, FibsGame::YOU, "{raw:?}");
    }
}

// ---------------------------------------------------------------------------------------------
// Hand-checked decodings.

#[test]
fn forum_example_decodes_as_documented() {
    let examples = example_boards();
    assert_eq!(examples.len(), 2);
    let spaced = FibsBoard::parse(&examples[0]).unwrap();
    let plain = FibsBoard::parse(&examples[1]).unwrap();
    assert_eq!(spaced, plain);
    let b = plain;
    assert_eq!((b.name.as_str(), b.opponent.as_str()), ("mpgnu", "buster"));
    assert_eq!((b.match_length, b.score, b.opponent_score), (17, 0, 2));
    assert_eq!(
        b.board,
        [0, 0, 0, 2, 1, 4, 3, 0, 1, 0, 1, 0, 0, 2, 0, 0, 0, 0, 0, 1, -2, -2, -1, -4, -4, 0]
    );
    let o: i32 = b
        .board
        .iter()
        .filter(|&&c| c > 0)
        .map(|&c| i32::from(c))
        .sum();
    let x: i32 = b
        .board
        .iter()
        .filter(|&&c| c < 0)
        .map(|&c| -i32::from(c))
        .sum();
    assert_eq!((o, x), (15, 13));
    assert_eq!(b.turn, Some(FibsColour::X));
    assert_eq!(b.dice, Some(Dice::new(3, 6).unwrap()));
    assert_eq!(b.opponent_dice, None);
    assert_eq!(b.cube, 1);
    assert!(b.may_double && b.opponent_may_double);
    assert_eq!(b.was_doubled, 0);
    assert_eq!((b.colour, b.direction), (FibsColour::X, Direction::Up));
    assert_eq!((b.home, b.bar), (25, 0));
    assert_eq!(
        (b.on_home, b.opponent_on_home, b.on_bar, b.opponent_on_bar),
        (2, 0, 0, 0)
    );
    assert_eq!((b.can_move, b.forced_move), (2, 2));
    assert!(!b.post_crawford);
    assert_eq!(b.redoubles, 0);

    let game = b.to_game().unwrap();
    let s = game.state;
    // mpgnu (X, "you") is on roll with 36 in a 17-point match, trailing 0-2, cube centred.
    assert_eq!(game.name(Player::One), "mpgnu");
    assert_eq!(
        (s.on_roll, s.turn, s.doubled),
        (Player::One, Player::One, false)
    );
    assert_eq!(s.match_length, 17);
    assert_eq!(s.score, [2, 0]);
    assert_eq!((s.cube_value(), s.cube_owner), (1, CubeOwner::Centered));
    // mpgnu's checkers: slot 24 = its 1 point (4), 23 = 2 (4), 22 = 3 (1), 21 = 4 (2), 20 = 5 (2).
    let p = game.position;
    assert_eq!(p.side(Side::Player)[..6], [4, 4, 1, 2, 2, 0]);
    assert_eq!(p.pip_count(Side::Player), 4 + 8 + 3 + 8 + 10);
    assert_eq!(p.pip_count(Side::Opponent), 111);
    assert!(p.is_race());
    // Bearing off with 36: two checkers come off (the 6 from the 5 point, the 3 from the 3 point).
    let moves = legal_moves(&p, s.dice.unwrap());
    assert!(moves.iter().all(|m| m.position.off(Side::Player) >= 3));
    assert!(moves.iter().any(|m| m.position.off(Side::Player) == 4));
}

/// The `index`-th board GNU Backgammon sent, parsed and converted.
fn trace_game(index: usize) -> (FibsBoard, FibsGame) {
    let raw = &trace_boards()[index];
    let board = FibsBoard::parse(raw).unwrap();
    let game = board.to_game().unwrap();
    (board, game)
}

#[test]
fn trace_first_lines_decode_by_hand() {
    // Line 0: the external player (O, moving 24 -> 1) is to decide whether to double in the
    // opening, after gnubg (X) played 21 as 24/23 13/11.
    let (b, g) = trace_game(0);
    assert_eq!((b.name.as_str(), b.opponent.as_str()), ("gnubg", "root"));
    assert_eq!(g.state.match_length, 5);
    assert_eq!(g.state.score, [0, 0]);
    assert_eq!((g.state.on_roll, g.state.dice), (Player::One, None));
    assert_eq!(g.state.cube_owner, CubeOwner::Centered);
    let mut start_x = Position::starting().side(Side::Opponent);
    start_x[23] -= 1;
    start_x[22] += 1;
    start_x[12] -= 1;
    start_x[10] += 1;
    assert_eq!(g.position.side(Side::Opponent), start_x);
    assert_eq!(
        g.position.side(Side::Player),
        Position::starting().side(Side::Player)
    );
    assert_eq!(g.position.pip_count(Side::Opponent), 164);

    // Line 1: the same position after "roll", dice 1 and 4 (written in the order rolled).
    let (_, g1) = trace_game(1);
    assert_eq!(g1.position, g.position);
    assert_eq!(g1.state.dice, Some(Dice::new(1, 4).unwrap()));
    // The external player answered "6/2* 2/1* ", gnubg's plain notation for 6/2*/1*.
    let played = play_steps(
        &g1.position,
        &[Step { from: 6, to: 2 }, Step { from: 2, to: 1 }],
    )
    .unwrap();
    let legal = legal_moves(&g1.position, Dice::new(1, 4).unwrap());
    let found = legal.iter().find(|m| m.position == played).unwrap();
    assert_eq!(format_move(&g1.position, &found.mv), "6/2*/1*");
    assert_eq!(played.bar(Side::Opponent), 2);

    // Line 2: gnubg entered both checkers (on its 23 and 22 points); O to roll again.
    let (b2, g2) = trace_game(2);
    assert_eq!(&b2.board[..4], &[0, 1, -1, -1]);
    assert_eq!(g2.position.side(Side::Player)[..6], [1, 0, 0, 0, 0, 4]);
}

#[test]
fn trace_pending_double_decodes_by_hand() {
    // The 22nd board: the external player danced with 22 from the bar against a closed board; now
    // gnubg, which owns the 2-cube, redoubles. Written for the taker: name "root" first,
    // turn -1 (X = gnubg on roll), cube 2, only X may double, was-doubled 1.
    let boards = trace_boards();
    let index = boards
        .iter()
        .position(|l| l.starts_with("board:root:"))
        .unwrap();
    assert_eq!(index, 21);
    let (b, g) = trace_game(index);
    assert_eq!(b.turn, Some(FibsColour::X));
    assert_eq!(
        (b.cube, b.may_double, b.opponent_may_double, b.was_doubled),
        (2, false, true, 1)
    );
    let s = g.state;
    assert!(s.doubled);
    assert_eq!((s.on_roll, s.turn), (Player::Zero, Player::One));
    assert_eq!(s.cube_owner, CubeOwner::Owned(Player::Zero));
    assert_eq!(s.dice, None);
    assert_eq!(g.name(Player::One), "root");
    // Oriented to the doubler (on roll); the taker sees himself on the bar.
    assert_eq!(g.position.bar(Side::Opponent), 1);
    assert_eq!(g.position_to_act().bar(Side::Player), 1);
    // The previous board is the same position, seen by the external player on roll with 22.
    let (_, before) = trace_game(index - 1);
    assert_eq!(before.position, g.position_to_act());
    assert_eq!(before.state.dice, Some(Dice::new(2, 2).unwrap()));
    assert_eq!(
        legal_moves(&before.position, Dice::new(2, 2).unwrap()).len(),
        1
    );
}

#[test]
fn trace_bearoff_line_decodes_by_hand() {
    // The board where both sides have borne off (13 for you, 14 for gnubg): 9 pips vs 4.
    let boards = trace_boards();
    let index = boards
        .iter()
        .position(|l| l.contains(":25:13:14:"))
        .unwrap();
    let (b, g) = trace_game(index);
    assert_eq!((b.on_home, b.opponent_on_home), (13, 14));
    assert_eq!(g.state.score, [3, 3]);
    assert_eq!(g.state.cube_value(), 2);
    assert_eq!(g.state.cube_owner, CubeOwner::Owned(Player::Zero));
    assert_eq!(g.state.dice, Some(Dice::new(1, 2).unwrap()));
    let p = g.position;
    assert_eq!(p.on_board(Side::Player), 2);
    assert_eq!(p.on_board(Side::Opponent), 1);
    assert_eq!(p.pip_count(Side::Player), 9);
    assert_eq!(p.pip_count(Side::Opponent), 4);
}

// ---------------------------------------------------------------------------------------------
// The session is a legal game: replay it with the move generator.

/// Parses gnubg's plain move notation (`6/2* 2/1* `, `25/20 `, `3/0 5/4 `): one step per
/// `from/to`, 25 = bar, 0 = off, `*` = a blot was hit there.
fn parse_plain_move(text: &str) -> Vec<(Step, bool)> {
    text.split_whitespace()
        .map(|token| {
            let hit = token.ends_with('*');
            let (from, to) = token.trim_end_matches('*').split_once('/').unwrap();
            let step = Step {
                from: from.parse().unwrap(),
                to: to.parse().unwrap(),
            };
            (step, hit)
        })
        .collect()
}

/// Plays `steps` in some order that works, checking the hit marks on the way.
fn play_plain(before: &Position, steps: &[(Step, bool)]) -> Option<Position> {
    fn permutations(items: Vec<(Step, bool)>) -> Vec<Vec<(Step, bool)>> {
        if items.len() <= 1 {
            return vec![items];
        }
        let mut out = Vec::new();
        for i in 0..items.len() {
            let mut rest = items.clone();
            let first = rest.remove(i);
            for mut tail in permutations(rest) {
                tail.insert(0, first);
                out.push(tail);
            }
        }
        out
    }
    'orders: for order in permutations(steps.to_vec()) {
        let mut position = *before;
        for (step, hit) in order {
            let to = usize::from(step.to);
            let blot = to != 0 && position.board()[to] == -1;
            if blot != hit {
                continue 'orders;
            }
            match play_steps(&position, &[step]) {
                Some(next) => position = next,
                None => continue 'orders,
            }
        }
        return Some(position);
    }
    None
}

/// True when `after` (seen from the player who just moved) can become `next` (seen from the
/// same player) by one roll of the opponent.
fn reachable_by_opponent(after: &Position, next: &Position) -> bool {
    let theirs = after.swap();
    let target = next.swap();
    Dice::all().any(|dice| {
        legal_moves(&theirs, dice)
            .iter()
            .any(|m| m.position == target)
    })
}

/// True for the first board of a game: the starting position, or the starting position after
/// the opponent's opening move.
fn is_new_game(game: &FibsGame) -> bool {
    let start = Position::starting();
    let you = your_view(game);
    you == start || reachable_by_opponent(&start, &you)
}

#[test]
fn replaying_the_trace_with_the_move_generator() {
    let messages = trace();
    let games: Vec<(FibsBoard, FibsGame)> = messages
        .iter()
        .filter(|m| m.from_gnubg)
        .map(|m| {
            let b = FibsBoard::parse(&m.text).unwrap();
            let g = b.to_game().unwrap();
            (b, g)
        })
        .collect();
    let answers: Vec<&str> = messages
        .iter()
        .filter(|m| !m.from_gnubg)
        .map(|m| m.text.trim_end_matches('\n'))
        .collect();
    assert_eq!(games.len(), answers.len());

    // Scores by name: the names travel with their scores in every line.
    let score_by_name = |b: &FibsBoard| -> HashMap<String, u32> {
        HashMap::from([
            (b.name.clone(), b.score),
            (b.opponent.clone(), b.opponent_score),
        ])
    };

    let mut moves_checked = 0;
    let mut gnubg_replies_checked = 0;
    let mut empty_moves = 0;
    let mut new_games = 0;
    for (i, answer) in answers.iter().enumerate() {
        let (board, game) = &games[i];
        let next = games.get(i + 1);
        let s = &game.state;
        let before = your_view(game);
        match *answer {
            "roll" => {
                assert!(s.dice.is_none() && !s.doubled, "board {i}");
                let (_, n) = next.unwrap();
                assert_eq!(your_view(n), before, "board {i}");
                assert!(n.state.dice.is_some());
                assert_eq!(n.state.cube_value(), s.cube_value());
            }
            "double" => {
                assert!(s.dice.is_none() && !s.doubled, "board {i}");
                assert_ne!(s.cube_owner, CubeOwner::Owned(Player::Zero));
                let (nb, n) = next.unwrap();
                if your_view(n) == before {
                    // Taken: gnubg owns the doubled cube and the dice are rolled at once.
                    assert_eq!(n.state.cube_value(), 2 * s.cube_value());
                    assert_eq!(n.state.cube_owner, CubeOwner::Owned(Player::Zero));
                    assert!(n.state.dice.is_some());
                } else {
                    // Dropped: root wins the cube value and a new game starts.
                    assert!(is_new_game(n), "board {i}");
                    let (old, new) = (score_by_name(board), score_by_name(nb));
                    assert_eq!(new["root"], old["root"] + s.cube_value());
                    assert_eq!(new["gnubg"], old["gnubg"]);
                    new_games += 1;
                }
            }
            "drop" => {
                assert!(s.doubled, "board {i}");
                let (nb, n) = next.unwrap();
                assert!(is_new_game(n), "board {i}");
                let (old, new) = (score_by_name(board), score_by_name(nb));
                assert_eq!(new["gnubg"], old["gnubg"] + s.cube_value());
                assert_eq!(new["root"], old["root"]);
                new_games += 1;
            }
            text => {
                // A checker play (possibly empty) with the dice of this board.
                let dice = s
                    .dice
                    .unwrap_or_else(|| panic!("board {i}: a move without dice"));
                assert!(!s.doubled);
                let legal = legal_moves(&before, dice);
                let steps = parse_plain_move(text);
                let after = play_plain(&before, &steps)
                    .unwrap_or_else(|| panic!("board {i}: {text:?} cannot be played"));
                let found = legal
                    .iter()
                    .find(|m| m.position == after)
                    .unwrap_or_else(|| panic!("board {i}: {text:?} with {dice} is not legal"));
                assert_eq!(found.mv.len(), steps.len(), "board {i}: {text:?}");
                if steps.is_empty() {
                    empty_moves += 1;
                    assert_eq!(legal.len(), 1, "board {i}: danced although a move existed");
                    assert_eq!(format_move(&before, &found.mv), "");
                }
                moves_checked += 1;

                let Some((nb, n)) = next else { continue };
                if let Some(result) = after.result() {
                    // root bore off its last checker.
                    assert_eq!(result.winner, Side::Player);
                    assert!(is_new_game(n), "board {i}");
                    let (old, new) = (score_by_name(board), score_by_name(nb));
                    assert_eq!(
                        new["root"],
                        old["root"] + result.kind.points() * s.cube_value()
                    );
                    new_games += 1;
                } else if n.state.doubled {
                    // gnubg doubles before rolling: the position is unchanged.
                    assert_eq!(your_view(n), after, "board {i}");
                } else {
                    // gnubg rolled and played; then root is on roll again.
                    assert!(
                        reachable_by_opponent(&after, &your_view(n)),
                        "board {i}: gnubg's reply to {text:?} is not a legal move"
                    );
                    gnubg_replies_checked += 1;
                }
            }
        }
    }
    assert_eq!(moves_checked, 83);
    assert_eq!(empty_moves, 7);
    assert!(gnubg_replies_checked >= 60, "{gnubg_replies_checked}");
    assert_eq!(new_games, 4);
}

/// GNU Backgammon's external-player writer puts player 0's name and score first on every line
/// without a pending double, although the board is written for player 1, the external player.
/// The score changes show it: the points "root" wins appear under the name "root", and the
/// checkers that won them are always the positive ones.
#[test]
fn trace_name_fields_follow_gnubg_numbering_not_the_board() {
    for raw in trace_boards() {
        let b = FibsBoard::parse(&raw).unwrap();
        let expected = if b.is_doubled() {
            ("root", "gnubg")
        } else {
            ("gnubg", "root")
        };
        assert_eq!((b.name.as_str(), b.opponent.as_str()), expected, "{raw:?}");
    }
}

// ---------------------------------------------------------------------------------------------
// Property tests.

fn arb_position() -> impl Strategy<Value = Position> {
    (
        prop::collection::vec(0..25usize, 0..=15),
        prop::collection::vec(0..25usize, 0..=15),
    )
        .prop_filter_map("a legal position", |(mine, theirs)| {
            let mut me = [0u8; 25];
            for i in mine {
                me[i] += 1;
            }
            let mut them = [0u8; 25];
            for i in theirs {
                // Their point i + 1 is our point 24 - i.
                if i == 24 || me[23 - i] == 0 {
                    them[i] += 1;
                }
            }
            Position::from_sides(&me, &them).ok()
        })
}

fn arb_dice() -> impl Strategy<Value = Option<Dice>> {
    prop::option::of((1..=6u8, 1..=6u8).prop_map(|(a, b)| Dice::new(a, b).unwrap()))
}

/// Characters GNU Backgammon or FIBS put into names (a space only inside).
const NAME_CHARS: &[char] = &[
    'a', 'b', 'k', 'z', 'A', 'G', 'Z', '0', '7', '9', '_', '-', '.', '\'', 'é', ' ',
];

fn arb_name() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(NAME_CHARS), 1..10).prop_map(|chars| {
        let name: String = chars.into_iter().collect();
        let name = name.trim();
        if name.is_empty() {
            "_".to_string()
        } else {
            name.to_string()
        }
    })
}

/// Arbitrary text of up to `max` characters (cheaper than a regex strategy).
fn arb_text(max: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(any::<char>(), 0..=max).prop_map(String::from_iter)
}

/// Any board that validates: a legal arrangement of checkers laid out for either colour and
/// direction, and every other field anywhere in its range.
fn arb_board() -> impl Strategy<Value = FibsBoard> {
    (
        (
            arb_position(),
            any::<bool>(),
            any::<bool>(),
            any::<(bool, bool)>(),
        ),
        (
            arb_name(),
            arb_name(),
            0..=9999u32,
            0..=32767u32,
            0..=32767u32,
        ),
        (
            0..3u8,
            arb_dice(),
            arb_dice(),
            0..=15u32,
            any::<(bool, bool)>(),
            -1..=1i8,
        ),
        (
            any::<(bool, bool)>(),
            any::<(u8, u8)>(),
            0..=15u8,
            0..=15u8,
            0..=4u8,
        ),
        (any::<u32>(), any::<bool>(), any::<u32>()),
    )
        .prop_map(
            |(
                (position, o, down, (bar_sign, their_bar_sign)),
                (name, opponent, match_length, score, opponent_score),
                (turn, dice, opponent_dice, cube_log2, (may, opp_may), was_doubled),
                ((home, bar), (off, their_off), on_bar, opponent_on_bar, can_move),
                (forced_move, post_crawford, redoubles),
            )| {
                let colour = if o { FibsColour::O } else { FibsColour::X };
                let direction = if down { Direction::Down } else { Direction::Up };
                let yours = position.side(Side::Player);
                let theirs = position.side(Side::Opponent);
                let sign = colour.sign();
                let mut board = [0i8; 26];
                for point in 1..=24usize {
                    let slot = direction.slot(point);
                    if yours[point - 1] > 0 {
                        board[slot] = yours[point - 1] as i8 * sign;
                    } else {
                        board[slot] = -(theirs[24 - point] as i8) * sign;
                    }
                }
                let your_bar = direction.slot(25);
                board[your_bar] = yours[24] as i8 * if bar_sign { 1 } else { -1 };
                board[25 - your_bar] = theirs[24] as i8 * if their_bar_sign { 1 } else { -1 };
                let left = |side: &[u8; 25], r: u8| r % (16 - side.iter().sum::<u8>());
                FibsBoard {
                    name,
                    opponent,
                    match_length,
                    score,
                    opponent_score,
                    board,
                    turn: [None, Some(FibsColour::X), Some(FibsColour::O)][usize::from(turn)],
                    dice,
                    opponent_dice,
                    cube: 1 << cube_log2,
                    may_double: may,
                    opponent_may_double: opp_may,
                    was_doubled,
                    colour,
                    direction,
                    home: if home { 25 } else { 0 },
                    bar: if bar { 25 } else { 0 },
                    on_home: left(&yours, off),
                    opponent_on_home: left(&theirs, their_off),
                    on_bar,
                    opponent_on_bar,
                    can_move,
                    forced_move,
                    post_crawford,
                    redoubles,
                }
            },
        )
}

/// Any game GNU Backgammon's writer can express: a legal position, consistent cube, dice and
/// Crawford state, "you" = player 1.
fn arb_game() -> impl Strategy<Value = FibsGame> {
    (
        (arb_position(), any::<bool>(), any::<bool>(), arb_dice()),
        (0..=15u8, 0..3u8),
        (
            prop_oneof![Just(0u16), 1..=64u16],
            any::<(u16, u16)>(),
            any::<bool>(),
        ),
        (arb_name(), arb_name()),
    )
        .prop_map(
            |(
                (position, you_on_roll, doubled, dice),
                (cube_log2, owner),
                (match_length, (s0, s1), crawford),
                (zero, one),
            )| {
                let score = if match_length == 0 {
                    [s0 % 32768, s1 % 32768]
                } else {
                    [s0 % match_length, s1 % match_length]
                };
                let one_away = match_length != 0
                    && (match_length - score[0] == 1 || match_length - score[1] == 1);
                let on_roll = if you_on_roll {
                    Player::One
                } else {
                    Player::Zero
                };
                let state = MatchState {
                    cube_log2,
                    cube_owner: [
                        CubeOwner::Centered,
                        CubeOwner::Owned(Player::Zero),
                        CubeOwner::Owned(Player::One),
                    ][usize::from(owner)],
                    on_roll,
                    crawford: crawford && one_away,
                    game_state: GameState::Playing,
                    turn: if doubled { on_roll.other() } else { on_roll },
                    doubled,
                    resigned: None,
                    dice: if doubled { None } else { dice },
                    match_length,
                    score,
                    jacoby: false,
                };
                FibsGame::new(position, state, [zero, one])
            },
        )
}

/// Random text, colon-separated soups of numbers and words after `board:`, and valid lines
/// (arbitrary boards, and games as GNU Backgammon writes them) with one field replaced.
fn arb_line() -> impl Strategy<Value = String> {
    let token = || {
        prop_oneof![
            4 => (-20i64..=30).prop_map(|n| n.to_string()),
            1 => any::<i64>().prop_map(|n| n.to_string()),
            1 => (0..3usize, prop::sample::select(&["", "-", "+"][..]), 0..10_000u32, 0..3usize)
                .prop_map(|(before, sign, n, after)| {
                    format!("{}{sign}{n}{}", " \t".repeat(before), "\t ".repeat(after))
                }),
            1 => arb_name(),
            1 => arb_text(4),
        ]
    };
    let soup = prop_oneof![
        prop::collection::vec(token(), 0..64),
        prop::collection::vec(token(), 51..=53),
    ]
    .prop_map(|fields| format!("board:{}", fields.join(":")));
    let replace = |text: String, index: usize, token: String| {
        let mut fields: Vec<&str> = text["board:".len()..].split(':').collect();
        fields[index] = &token;
        format!("board:{}", fields.join(":"))
    };
    let mutated_board = (arb_board(), 0..52usize, token())
        .prop_map(move |(board, index, token)| replace(board.to_string(), index, token));
    let mutated_game = (arb_game(), 0..52usize, token()).prop_map(move |(game, index, token)| {
        let text = FibsBoard::from_game(&game).unwrap().to_string();
        replace(text, index, token)
    });
    prop_oneof![
        1 => arb_text(100),
        1 => arb_text(200).prop_map(|text| format!("board:{text}")),
        3 => soup,
        3 => mutated_board,
        3 => mutated_game,
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100_000))]

    /// The parser never panics; whatever it accepts formats to a line that parses back to the
    /// same board, and converting it never panics either.
    #[test]
    fn parse_never_panics(line in arb_line()) {
        match FibsBoard::parse(&line) {
            Ok(board) => {
                let text = board.to_string();
                prop_assert_eq!(FibsBoard::parse(&text), Ok(board.clone()));
                if let Ok(game) = board.to_game() {
                    let written = FibsBoard::from_game(&game);
                    prop_assert!(written.is_ok(), "{:?}", written);
                }
            }
            Err(e) => {
                prop_assert!(!e.to_string().is_empty());
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(5_000))]

    /// Valid boards format and parse back unchanged (also with blanks after the colons and a
    /// protocol line end).
    #[test]
    fn valid_boards_round_trip(board in arb_board()) {
        prop_assert_eq!(board.validate(), Ok(()));
        let text = board.to_string();
        prop_assert_eq!(FibsBoard::parse(&text), Ok(board.clone()));
        let spaced = format!("{}\n\0", text.replace(':', ": "));
        prop_assert_eq!(FibsBoard::parse(&spaced), Ok(board.clone()));
        // Pips seen through the engine agree with the raw fields whenever it is a game.
        if let Ok(game) = board.to_game() {
            let you = side_of(&game, FibsGame::YOU);
            let them = side_of(&game, FibsGame::OPPONENT);
            prop_assert_eq!(
                (game.position.pip_count(you), game.position.pip_count(them)),
                raw_pips(&board)
            );
        }
    }

    /// What GNU Backgammon's writer produces reads back as the same game.
    #[test]
    fn games_round_trip_through_the_writer(game in arb_game()) {
        let board = FibsBoard::from_game(&game).unwrap();
        let text = board.to_string();
        let back = FibsBoard::parse(&text).unwrap().to_game().unwrap();
        prop_assert_eq!(back, game);
    }
}

#[test]
fn errors_name_the_field() {
    let line = bare(&trace_boards()[0]).to_string();
    let mut fields: Vec<String> = line["board:".len()..]
        .split(':')
        .map(String::from)
        .collect();
    fields[36] = "three".into();
    let e = FibsBoard::parse(&format!("board:{}", fields.join(":"))).unwrap_err();
    assert_eq!(
        e,
        FibsError::NotANumber {
            field: 37,
            text: "three".into()
        }
    );
    assert_eq!(e.to_string(), "field 37 (cube) is not a number: \"three\"");
}
