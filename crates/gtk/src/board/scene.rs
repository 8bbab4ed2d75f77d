//! The scene: exactly what the board shows at one moment, as plain data. The view-model
//! ([`crate::board::model`]) produces it; the renderer ([`crate::board::render`]) draws it. All
//! texts in it are already translated.

use super::geometry::{CubePlace, Seat, Slot};
use super::model::LastMove;

/// An sRGB colour with components in 0..=1.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rgb(pub f64, pub f64, pub f64);

impl Rgb {
    /// Parses `#rrggbb`.
    pub fn parse(text: &str) -> Option<Rgb> {
        let hex = text.trim().strip_prefix('#')?;
        if hex.len() != 6 || !hex.is_ascii() {
            return None;
        }
        let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).ok();
        Some(Rgb::from_bytes(byte(0)?, byte(2)?, byte(4)?))
    }

    /// From 8-bit components.
    pub fn from_bytes(r: u8, g: u8, b: u8) -> Rgb {
        Rgb(
            f64::from(r) / 255.0,
            f64::from(g) / 255.0,
            f64::from(b) / 255.0,
        )
    }

    /// `#rrggbb`.
    pub fn to_hex(self) -> String {
        let c = |v: f64| (v.clamp(0.0, 1.0) * 255.0).round() as u8;
        format!("#{:02x}{:02x}{:02x}", c(self.0), c(self.1), c(self.2))
    }

    /// Perceived brightness, 0..=1.
    pub fn luminance(self) -> f64 {
        0.2126 * self.0 + 0.7152 * self.1 + 0.0722 * self.2
    }

    /// Mixed with `other` by `t` (0 = self).
    pub fn mix(self, other: Rgb, t: f64) -> Rgb {
        Rgb(
            self.0 + (other.0 - self.0) * t,
            self.1 + (other.1 - self.1) * t,
            self.2 + (other.2 - self.2) * t,
        )
    }

    /// Black or white, whichever reads better on this colour.
    pub fn contrast(self) -> Rgb {
        if self.luminance() > 0.5 {
            Rgb(0.1, 0.1, 0.1)
        } else {
            Rgb(0.97, 0.97, 0.95)
        }
    }
}

/// The board's colours.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Colours {
    /// Checkers of the bottom and the top player (indexed by [`Seat::index`]).
    pub checkers: [Rgb; 2],
    /// The playing surface.
    pub felt: Rgb,
    /// Alternating point colours.
    pub points: [Rgb; 2],
    /// Frame, bar and trays.
    pub frame: Rgb,
    /// Highlight of legal destinations.
    pub highlight: Rgb,
}

impl Default for Colours {
    fn default() -> Colours {
        Colours {
            checkers: [
                Rgb::from_bytes(0xf4, 0xef, 0xe1),
                Rgb::from_bytes(0xa5, 0x1d, 0x2d),
            ],
            felt: Rgb::from_bytes(0x2e, 0x6b, 0x4a),
            points: [
                Rgb::from_bytes(0xd9, 0xc3, 0x8e),
                Rgb::from_bytes(0x5a, 0x3a, 0x26),
            ],
            frame: Rgb::from_bytes(0x6b, 0x45, 0x2a),
            highlight: Rgb::from_bytes(0x57, 0xe3, 0x89),
        }
    }
}

/// The dice on the board.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DiceScene {
    /// Whose dice: drawn in that seat's half.
    pub seat: Seat,
    /// Left and right die as rolled.
    pub values: [u8; 2],
    /// Dice already played are drawn faded.
    pub used: [bool; 2],
}

/// The doubling cube.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CubeScene {
    pub place: CubePlace,
    /// The value shown (64 for a centred cube at 1, as on a real cube).
    pub value: u32,
    /// False when the cube cannot be used in this game (the Crawford game): drawn faded.
    pub live: bool,
}

/// A checker drawn away from any point: being dragged or in flight.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Floating {
    pub seat: Seat,
    /// Centre in widget coordinates.
    pub x: f64,
    pub y: f64,
}

/// Per-seat texts of the info strips.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SeatInfo {
    pub name: String,
    /// For example "Score 3" (already translated).
    pub score: String,
    /// For example "Pips 167" (already translated).
    pub pips: String,
}

/// Everything the board shows.
#[derive(Clone, Debug, PartialEq)]
pub struct Scene {
    /// Checkers in the bottom player's numbering: `board[1..=24]` positive for the bottom
    /// player, negative for the top player; `board[25]` the bottom player's bar, `board[0]` the
    /// top player's bar (negative). Floating checkers are already taken out.
    pub board: [i8; 26],
    /// Borne-off checkers per seat.
    pub off: [u8; 2],
    pub info: [SeatInfo; 2],
    /// Text in the middle of the frame's top edge, e.g. "Match to 7 · Crawford game".
    pub match_text: String,
    /// Who is on roll (marked in the info strip); `None` between games.
    pub on_roll: Option<Seat>,
    pub dice: Option<DiceScene>,
    pub cube: Option<CubeScene>,
    /// A resignation offered: by whom, and 1 (single), 2 (gammon) or 3 (backgammon).
    pub resignation: Option<(Seat, u8)>,
    /// The last move made: its checkers are marked where they ended, and where they started.
    pub last_move: Option<LastMove>,
    /// Legal destinations of the checker being dragged (or of the hovered one).
    pub highlights: Vec<Slot>,
    /// Where a dragged checker was lifted from.
    pub source: Option<Slot>,
    pub floating: Option<Floating>,
    /// A short text shown in a half of the board (e.g. "Click to roll"), and the half.
    pub prompt: Option<(Seat, String)>,
    pub colours: Colours,
}

impl Scene {
    /// An empty board (no checkers, no dice), for a start screen.
    pub fn empty(colours: Colours) -> Scene {
        Scene {
            board: [0; 26],
            off: [0; 2],
            info: Default::default(),
            match_text: String::new(),
            on_roll: None,
            dice: None,
            cube: None,
            resignation: None,
            last_move: None,
            highlights: Vec::new(),
            source: None,
            floating: None,
            prompt: None,
            colours,
        }
    }

    /// Checkers of `seat` on `slot` as drawn.
    pub fn count(&self, slot: Slot, seat: Seat) -> u8 {
        match slot {
            Slot::Point(p) => {
                let c = self.board[usize::from(p.clamp(1, 24))];
                match seat {
                    Seat::Bottom => c.max(0) as u8,
                    Seat::Top => (-c).max(0) as u8,
                }
            }
            Slot::Bar(Seat::Bottom) if seat == Seat::Bottom => self.board[25].max(0) as u8,
            Slot::Bar(Seat::Top) if seat == Seat::Top => (-self.board[0]).max(0) as u8,
            Slot::Tray(s) if s == seat => self.off[seat.index()],
            _ => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_round_trip() {
        let c = Rgb::parse("#a51d2d").unwrap();
        assert_eq!(c.to_hex(), "#a51d2d");
        assert!(Rgb::parse("a51d2d").is_none());
        assert!(Rgb::parse("#a51d2").is_none());
        assert!(Rgb::parse("#zz1d2d").is_none());
        assert!(Rgb::parse("#ä51d2").is_none());
        assert!(Rgb(1.0, 1.0, 1.0).contrast().luminance() < 0.5);
    }
}
