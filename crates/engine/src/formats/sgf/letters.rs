//! Point letters: how GNU Backgammon's SGF writes the points of a move or a set-up.
//!
//! The letters are board coordinates counted from White's side: `a` is White's 1-point (Black's
//! 24-point), `x` White's 24-point (Black's 1-point); `y` is the bar and `z` off, for both
//! colours. Moves in the engine are in the mover's own numbering (1..=24, 25 = bar, 0 = off).

use crate::game::match_state::Player;
use crate::rules::moves::{Move, Step};
use crate::rules::position::{BAR, OFF};

/// The letter of a point in `player`'s numbering (1..=24, 25 = bar, 0 = off). Points outside
/// the board cannot be written; they are written as `?`, which no reader accepts.
pub(super) fn point_letter(player: Player, point: u8) -> char {
    match usize::from(point) {
        BAR => 'y',
        OFF => 'z',
        p @ 1..=24 => {
            let index = (p - 1) as u8;
            char::from(match player {
                Player::Zero => b'a' + index,
                Player::One => b'x' - index,
            })
        }
        _ => '?',
    }
}

/// The point of a letter in `player`'s numbering: `a`..=`x` a point, `y` the bar. `None` for
/// any other character (`z`, off, is handled by the caller where it is allowed).
pub(super) fn letter_point(player: Player, letter: char) -> Option<u8> {
    match letter {
        'y' => Some(BAR as u8),
        'a'..='x' => {
            let index = letter as u8 - b'a';
            Some(match player {
                Player::Zero => index + 1,
                Player::One => 24 - index,
            })
        }
        _ => None,
    }
}

/// The letters of a move: a from/to pair per step.
pub(super) fn move_letters(player: Player, mv: &Move) -> String {
    let mut out = String::with_capacity(2 * mv.len());
    for step in mv.steps() {
        out.push(point_letter(player, step.from));
        out.push(point_letter(player, step.to));
    }
    out
}

/// Reads the from/to letters of a move (at most four pairs). A source is a point or the bar
/// (`y`), a destination a point or off (`z`).
pub(super) fn parse_move_letters(player: Player, text: &str) -> Result<Move, String> {
    let letters: Vec<char> = text.chars().collect();
    if !letters.len().is_multiple_of(2) {
        return Err(format!(
            "{} letters: a move is written as from/to pairs",
            letters.len()
        ));
    }
    if letters.len() > 8 {
        return Err(format!(
            "{} steps: a move has at most four",
            letters.len() / 2
        ));
    }
    let mut steps = Vec::with_capacity(4);
    for pair in letters.chunks_exact(2) {
        let from = letter_point(player, pair[0]).ok_or_else(|| {
            format!(
                "'{}' is not a point to move from (a..x or y for the bar)",
                pair[0].escape_debug()
            )
        })?;
        let to = match pair[1] {
            'z' => OFF as u8,
            'y' => return Err("a checker cannot move to the bar ('y')".to_owned()),
            c => letter_point(player, c).ok_or_else(|| {
                format!(
                    "'{}' is not a point to move to (a..x or z for off)",
                    c.escape_debug()
                )
            })?,
        };
        steps.push(Step { from, to });
    }
    Ok(Move::from_steps(&steps))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_are_counted_from_whites_side() {
        // White 31: 8/5 6/5.
        let mv = parse_move_letters(Player::Zero, "hefe").unwrap();
        assert_eq!(
            mv.steps(),
            [Step { from: 8, to: 5 }, Step { from: 6, to: 5 }]
        );
        // Black 41: 13/9 24/23.
        let mv = parse_move_letters(Player::One, "lpab").unwrap();
        assert_eq!(
            mv.steps(),
            [Step { from: 13, to: 9 }, Step { from: 24, to: 23 }]
        );
        // Bar and off for both colours.
        let mv = parse_move_letters(Player::One, "ygczdz").unwrap();
        assert_eq!(
            mv.steps(),
            [
                Step { from: 25, to: 18 },
                Step { from: 22, to: 0 },
                Step { from: 21, to: 0 }
            ]
        );
        for player in [Player::Zero, Player::One] {
            for point in 0..=25u8 {
                let letter = point_letter(player, point);
                match point {
                    0 => assert_eq!(letter, 'z'),
                    p => assert_eq!(letter_point(player, letter), Some(p)),
                }
            }
            assert_eq!(point_letter(player, 26), '?');
            let mv = Move::from_steps(&[Step { from: 25, to: 20 }, Step { from: 3, to: 0 }]);
            assert_eq!(
                parse_move_letters(player, &move_letters(player, &mv)),
                Ok(mv)
            );
        }
        assert_eq!(move_letters(Player::Zero, &Move::NONE), "");
        assert_eq!(parse_move_letters(Player::Zero, ""), Ok(Move::NONE));
    }

    #[test]
    fn bad_letters_are_errors() {
        for bad in ["a", "abcdefghij", "za", "ay", "a?", "Ab", "aé"] {
            assert!(parse_move_letters(Player::Zero, bad).is_err(), "{bad}");
        }
    }
}
