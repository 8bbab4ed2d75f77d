//! Where everything on the board is: the layout in board units, scaled to the widget, and hit
//! testing. Pure arithmetic, shared by the renderer and the input handling so that what is
//! drawn is exactly what can be clicked.
//!
//! Points are numbered from the *bottom* player's side, as the board shows them: the bottom
//! player's home board is at the bottom right (point 1 at the far right) and both players bear
//! off into the trays on the right; the cube waits on the left.
//!
//! One board unit is the diameter of a checker. The board is [`WIDTH`] × [`HEIGHT`] units,
//! scaled uniformly to fit the widget and centred; nothing is cached as a bitmap, so it is
//! crisp at any size and scale factor.

/// The two places a player can sit at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Seat {
    Bottom,
    Top,
}

impl Seat {
    /// The other seat.
    pub fn other(self) -> Seat {
        match self {
            Seat::Bottom => Seat::Top,
            Seat::Top => Seat::Bottom,
        }
    }

    /// 0 for the bottom, 1 for the top: an index into per-seat arrays.
    pub fn index(self) -> usize {
        match self {
            Seat::Bottom => 0,
            Seat::Top => 1,
        }
    }
}

/// A place checkers can be on, in the bottom player's numbering.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Slot {
    /// Point 1..=24 from the bottom player's side.
    Point(u8),
    /// The bar of a seat's checkers.
    Bar(Seat),
    /// The bear-off tray of a seat.
    Tray(Seat),
}

impl Slot {
    /// The slot of the mover's point `p` (mover's numbering: 1..=24, 25 = bar, 0 = off) for a
    /// mover sitting at `mover`.
    pub fn from_mover(mover: Seat, p: u8) -> Slot {
        match p {
            0 => Slot::Tray(mover),
            25 => Slot::Bar(mover),
            p => match mover {
                Seat::Bottom => Slot::Point(p),
                Seat::Top => Slot::Point(25 - p),
            },
        }
    }

    /// This slot in the numbering of a mover sitting at `mover`, if the mover's checkers can be
    /// there (the other seat's bar and tray belong to nobody the mover can use).
    pub fn to_mover(self, mover: Seat) -> Option<u8> {
        match self {
            Slot::Point(p) => Some(match mover {
                Seat::Bottom => p,
                Seat::Top => 25 - p,
            }),
            Slot::Bar(s) if s == mover => Some(25),
            Slot::Tray(s) if s == mover => Some(0),
            _ => None,
        }
    }
}

/// Something on the board the pointer is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Hit {
    /// A place for checkers.
    Slot(Slot),
    /// The dice of a seat (click to finish the move).
    Dice(Seat),
    /// The doubling cube, wherever it is.
    Cube,
    /// A resignation flag offered on the board.
    Resignation,
    /// The empty half of the board where a seat's dice are thrown (click to roll).
    Half(Seat),
}

/// A rectangle in widget coordinates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
}

impl Rect {
    /// True if (`x`, `y`) is inside.
    pub fn contains(&self, x: f64, y: f64) -> bool {
        x >= self.x && x < self.x + self.w && y >= self.y && y < self.y + self.h
    }

    /// The centre.
    pub fn centre(&self) -> (f64, f64) {
        (self.x + self.w / 2.0, self.y + self.h / 2.0)
    }
}

/// Frame thickness around each part.
pub const FRAME: f64 = 0.4;
/// Width of the strip on the left where the cube waits.
pub const CUBE_STRIP: f64 = 1.3;
/// Width of one point.
pub const POINT: f64 = 1.0;
/// Width of the bar.
pub const BAR: f64 = 1.1;
/// Width of the bear-off trays.
pub const TRAY: f64 = 1.3;
/// Height of the strips above and below the board with names, scores and pips.
pub const INFO: f64 = 0.95;
/// Length of a point (five checkers).
pub const POINT_LENGTH: f64 = 5.0;
/// The gap between the two rows of points.
pub const MIDDLE: f64 = 1.5;
/// Checkers drawn on one point before the rest is shown as a number.
pub const MAX_STACK: u8 = 5;
/// Checkers drawn on the bar before the rest is shown as a number.
pub const MAX_BAR_STACK: u8 = 3;
/// Height of one borne-off checker in a tray (seen edge on).
pub const SLAB: f64 = 0.3;
/// Size of a die and of the cube.
pub const DIE: f64 = 0.9;

/// x of the left edge of the left half of the playing area.
const LEFT_HALF: f64 = FRAME + CUBE_STRIP + FRAME;
/// x of the left edge of the bar.
const BAR_X: f64 = LEFT_HALF + 6.0 * POINT;
/// x of the left edge of the right half.
const RIGHT_HALF: f64 = BAR_X + BAR;
/// x of the left edge of the tray.
const TRAY_X: f64 = RIGHT_HALF + 6.0 * POINT + FRAME;
/// Total width in units.
pub const WIDTH: f64 = TRAY_X + TRAY + FRAME;
/// y of the top of the playing area.
const PLAY_TOP: f64 = INFO + FRAME;
/// y of the bottom of the playing area.
const PLAY_BOTTOM: f64 = PLAY_TOP + 2.0 * POINT_LENGTH + MIDDLE;
/// Total height in units.
pub const HEIGHT: f64 = PLAY_BOTTOM + FRAME + INFO;

/// The board laid out in a widget of a given size.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Geometry {
    /// Pixels (logical) per board unit.
    pub unit: f64,
    /// Widget coordinates of the board's top-left corner.
    pub ox: f64,
    pub oy: f64,
}

impl Geometry {
    /// The largest board that fits `width` × `height`, centred.
    pub fn new(width: f64, height: f64) -> Geometry {
        let unit = (width / WIDTH).min(height / HEIGHT).max(0.0);
        Geometry {
            unit,
            ox: (width - unit * WIDTH) / 2.0,
            oy: (height - unit * HEIGHT) / 2.0,
        }
    }

    /// Board units to widget coordinates.
    pub fn px(&self, x: f64, y: f64) -> (f64, f64) {
        (self.ox + x * self.unit, self.oy + y * self.unit)
    }

    /// Widget coordinates to board units.
    pub fn units(&self, x: f64, y: f64) -> (f64, f64) {
        if self.unit <= 0.0 {
            return (-1.0, -1.0);
        }
        ((x - self.ox) / self.unit, (y - self.oy) / self.unit)
    }

    /// A rectangle given in board units.
    pub fn rect(&self, x: f64, y: f64, w: f64, h: f64) -> Rect {
        let (px, py) = self.px(x, y);
        Rect {
            x: px,
            y: py,
            w: w * self.unit,
            h: h * self.unit,
        }
    }

    /// The whole board, info strips included.
    pub fn board(&self) -> Rect {
        self.rect(0.0, 0.0, WIDTH, HEIGHT)
    }

    /// The wooden frame (everything between the info strips).
    pub fn frame(&self) -> Rect {
        self.rect(0.0, INFO, WIDTH, HEIGHT - 2.0 * INFO)
    }

    /// The info strip of a seat (names, score, pips).
    pub fn info(&self, seat: Seat) -> Rect {
        match seat {
            Seat::Top => self.rect(0.0, 0.0, WIDTH, INFO),
            Seat::Bottom => self.rect(0.0, HEIGHT - INFO, WIDTH, INFO),
        }
    }

    /// The left (`Seat::Top`'s dice side) or right (`Seat::Bottom`'s) half of the playing area.
    pub fn half(&self, seat: Seat) -> Rect {
        let x = match seat {
            Seat::Top => LEFT_HALF,
            Seat::Bottom => RIGHT_HALF,
        };
        self.rect(x, PLAY_TOP, 6.0 * POINT, PLAY_BOTTOM - PLAY_TOP)
    }

    /// The bar.
    pub fn bar(&self) -> Rect {
        self.rect(BAR_X, PLAY_TOP, BAR, PLAY_BOTTOM - PLAY_TOP)
    }

    /// The strip on the left where the cube sits.
    pub fn cube_strip(&self) -> Rect {
        self.rect(FRAME, PLAY_TOP, CUBE_STRIP, PLAY_BOTTOM - PLAY_TOP)
    }

    /// The tray of a seat (top tray for the top player).
    pub fn tray(&self, seat: Seat) -> Rect {
        let h = POINT_LENGTH + MIDDLE / 2.0 - FRAME / 2.0;
        match seat {
            Seat::Top => self.rect(TRAY_X, PLAY_TOP, TRAY, h),
            Seat::Bottom => self.rect(TRAY_X, PLAY_BOTTOM - h, TRAY, h),
        }
    }

    /// Column (0..12 from the left) and row (true = top) of a point.
    fn column(point: u8) -> (u8, bool) {
        match point {
            1..=12 => (12 - point, false),
            _ => (point - 13, true),
        }
    }

    /// x (units) of the left edge of a column.
    fn column_x(column: u8) -> f64 {
        if column < 6 {
            LEFT_HALF + f64::from(column) * POINT
        } else {
            RIGHT_HALF + f64::from(column - 6) * POINT
        }
    }

    /// The triangle's bounding box of point 1..=24 (the hit area too).
    pub fn point(&self, point: u8) -> Rect {
        let (column, top) = Geometry::column(point.clamp(1, 24));
        let x = Geometry::column_x(column);
        let y = if top {
            PLAY_TOP
        } else {
            PLAY_BOTTOM - POINT_LENGTH
        };
        self.rect(x, y, POINT, POINT_LENGTH)
    }

    /// True if a point's triangle grows downwards from the top edge.
    pub fn point_is_top(point: u8) -> bool {
        point > 12
    }

    /// Centre (widget coordinates) of the `index`-th checker (0 = the one at the edge) stacked
    /// on `slot`. Trays are not stacks: see [`Geometry::slab`].
    pub fn checker(&self, slot: Slot, index: u8) -> (f64, f64) {
        let i = f64::from(index);
        match slot {
            Slot::Point(p) => {
                let (column, top) = Geometry::column(p.clamp(1, 24));
                let x = Geometry::column_x(column) + POINT / 2.0;
                let y = if top {
                    PLAY_TOP + 0.5 + i
                } else {
                    PLAY_BOTTOM - 0.5 - i
                };
                self.px(x, y)
            }
            Slot::Bar(seat) => {
                let x = BAR_X + BAR / 2.0;
                let mid = (PLAY_TOP + PLAY_BOTTOM) / 2.0;
                let y = match seat {
                    Seat::Bottom => mid + 1.2 + i,
                    Seat::Top => mid - 1.2 - i,
                };
                self.px(x, y)
            }
            Slot::Tray(seat) => {
                let r = self.slab(seat, index);
                r.centre()
            }
        }
    }

    /// The `index`-th borne-off checker in a seat's tray.
    pub fn slab(&self, seat: Seat, index: u8) -> Rect {
        let i = f64::from(index);
        let x = TRAY_X + 0.12;
        let w = TRAY - 0.24;
        match seat {
            Seat::Top => self.rect(x, PLAY_TOP + 0.1 + i * SLAB, w, SLAB * 0.9),
            Seat::Bottom => self.rect(x, PLAY_BOTTOM - 0.1 - (i + 1.0) * SLAB, w, SLAB * 0.9),
        }
    }

    /// Checker radius in pixels.
    pub fn radius(&self) -> f64 {
        self.unit * 0.46
    }

    /// The two dice of a seat, left and right.
    pub fn dice(&self, seat: Seat) -> [Rect; 2] {
        let half = self.half(seat);
        let (cx, cy) = half.centre();
        let (ux, uy) = self.units(cx, cy);
        [
            self.rect(ux - 0.15 - DIE, uy - DIE / 2.0, DIE, DIE),
            self.rect(ux + 0.15, uy - DIE / 2.0, DIE, DIE),
        ]
    }

    /// The area covering both dice of a seat (their hit area).
    pub fn dice_area(&self, seat: Seat) -> Rect {
        let [a, b] = self.dice(seat);
        Rect {
            x: a.x,
            y: a.y,
            w: b.x + b.w - a.x,
            h: a.h,
        }
    }

    /// Where the cube is drawn: centred in the cube strip, at its owner's end, or offered in
    /// the middle of the doubler's half.
    pub fn cube(&self, place: CubePlace) -> Rect {
        let x = FRAME + (CUBE_STRIP - DIE) / 2.0;
        let mid = (PLAY_TOP + PLAY_BOTTOM) / 2.0;
        match place {
            CubePlace::Centre => self.rect(x, mid - DIE / 2.0, DIE, DIE),
            CubePlace::Owned(Seat::Top) => self.rect(x, PLAY_TOP + 0.2, DIE, DIE),
            CubePlace::Owned(Seat::Bottom) => self.rect(x, PLAY_BOTTOM - 0.2 - DIE, DIE, DIE),
            CubePlace::Offered(seat) => {
                let (cx, cy) = self.half(seat).centre();
                let (ux, uy) = self.units(cx, cy);
                self.rect(ux - DIE / 2.0, uy - DIE / 2.0, DIE, DIE)
            }
        }
    }

    /// Where a resignation flag offered by `seat` is drawn: in the middle of the other half.
    pub fn resignation(&self, seat: Seat) -> Rect {
        let (cx, cy) = self.half(seat.other()).centre();
        let (ux, uy) = self.units(cx, cy);
        self.rect(ux - 0.6, uy - 0.6, 1.2, 1.2)
    }

    /// What is under (`x`, `y`). `cube` and `resignation` say where those are drawn now (they
    /// take precedence, being drawn on top); `dice` says whose dice are on the board.
    pub fn hit(
        &self,
        x: f64,
        y: f64,
        cube: Option<CubePlace>,
        resignation: Option<Seat>,
        dice: Option<Seat>,
    ) -> Option<Hit> {
        if let Some(seat) = resignation {
            if self.resignation(seat).contains(x, y) {
                return Some(Hit::Resignation);
            }
        }
        if let Some(place) = cube {
            if self.cube(place).contains(x, y) {
                return Some(Hit::Cube);
            }
        }
        if let Some(seat) = dice {
            if self.dice_area(seat).contains(x, y) {
                return Some(Hit::Dice(seat));
            }
        }
        for p in 1..=24 {
            if self.point(p).contains(x, y) {
                return Some(Hit::Slot(Slot::Point(p)));
            }
        }
        let bar = self.bar();
        if bar.contains(x, y) {
            let seat = if y >= bar.y + bar.h / 2.0 {
                Seat::Bottom
            } else {
                Seat::Top
            };
            return Some(Hit::Slot(Slot::Bar(seat)));
        }
        for seat in [Seat::Bottom, Seat::Top] {
            if self.tray(seat).contains(x, y) {
                return Some(Hit::Slot(Slot::Tray(seat)));
            }
        }
        for seat in [Seat::Bottom, Seat::Top] {
            if self.half(seat).contains(x, y) {
                return Some(Hit::Half(seat));
            }
        }
        None
    }

    /// The nearest slot to (`x`, `y`) for dropping a dragged checker: the slot under the
    /// pointer, or the point whose column the pointer is in when it is in the middle gap.
    pub fn drop_slot(&self, x: f64, y: f64) -> Option<Slot> {
        match self.hit(x, y, None, None, None) {
            Some(Hit::Slot(slot)) => return Some(slot),
            Some(Hit::Half(_)) => {}
            _ => return None,
        }
        // In the gap between the rows: the point of this column in the nearer row.
        let (ux, uy) = self.units(x, y);
        let mid = (PLAY_TOP + PLAY_BOTTOM) / 2.0;
        for p in 1..=24u8 {
            let r = self.point(p);
            let (px0, _) = self.units(r.x, r.y);
            if ux >= px0 && ux < px0 + POINT && Geometry::point_is_top(p) == (uy < mid) {
                return Some(Slot::Point(p));
            }
        }
        None
    }

    /// Edit mode's quick edit: the point or bar under (`x`, `y`), the place on its stack that
    /// was clicked (1 = the checker at the point's base or nearest the middle of the bar; 0 =
    /// the frame beyond a point's base) and the last place drawn on that stack.
    pub fn edit_place(&self, x: f64, y: f64) -> Option<(Slot, u8, u8)> {
        let (ux, uy) = self.units(x, y);
        for p in 1..=24u8 {
            let r = self.point(p);
            let (left, _) = self.units(r.x, r.y);
            if ux < left || ux >= left + POINT {
                continue;
            }
            let from_base = if Geometry::point_is_top(p) {
                uy - PLAY_TOP
            } else {
                PLAY_BOTTOM - uy
            };
            if (-FRAME..0.0).contains(&from_base) {
                return Some((Slot::Point(p), 0, MAX_STACK));
            }
            if (0.0..POINT_LENGTH).contains(&from_base) {
                let n = (from_base.floor() as u8 + 1).min(MAX_STACK);
                return Some((Slot::Point(p), n, MAX_STACK));
            }
        }
        if self.bar().contains(x, y) {
            // Bar checkers stack from the middle outwards (see `checker`).
            let mid = (PLAY_TOP + PLAY_BOTTOM) / 2.0;
            let (seat, from_first) = if uy >= mid {
                (Seat::Bottom, uy - (mid + 0.7))
            } else {
                (Seat::Top, (mid - 0.7) - uy)
            };
            let n = (from_first.max(0.0).floor() as u8 + 1).min(MAX_BAR_STACK);
            return Some((Slot::Bar(seat), n, MAX_BAR_STACK));
        }
        None
    }
}

/// Where the cube is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum CubePlace {
    /// In the middle: either player may double.
    Centre,
    /// On the owner's side.
    Owned(Seat),
    /// Offered by this seat, waiting for an answer.
    Offered(Seat),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fits_and_centres() {
        let g = Geometry::new(WIDTH * 100.0, 2000.0);
        assert!((g.unit - 100.0).abs() < 1e-9);
        assert!(g.ox.abs() < 1e-9);
        assert!(g.oy > 0.0);
        let b = g.board();
        assert!((b.y + b.h / 2.0 - 1000.0).abs() < 1e-6);
    }

    #[test]
    fn points_are_where_the_bottom_player_expects() {
        let g = Geometry::new(1710.0, 1400.0);
        let one = g.point(1);
        let twelve = g.point(12);
        let thirteen = g.point(13);
        let twenty_four = g.point(24);
        // 1 bottom right, 12 bottom left, 13 top left, 24 top right.
        assert!(one.x > twelve.x && one.y > thirteen.y);
        assert_eq!(thirteen.x, twelve.x);
        assert_eq!(twenty_four.x, one.x);
        assert!(twenty_four.y < one.y);
        // Hit testing finds every point at its centre.
        for p in 1..=24 {
            let (x, y) = g.point(p).centre();
            assert_eq!(
                g.hit(x, y, None, None, None),
                Some(Hit::Slot(Slot::Point(p)))
            );
            let (cx, cy) = g.checker(Slot::Point(p), 0);
            assert_eq!(g.drop_slot(cx, cy), Some(Slot::Point(p)));
        }
    }

    #[test]
    fn bar_trays_dice_cube() {
        let g = Geometry::new(855.0, 700.0);
        let (x, y) = g.checker(Slot::Bar(Seat::Bottom), 0);
        assert_eq!(
            g.hit(x, y, None, None, None),
            Some(Hit::Slot(Slot::Bar(Seat::Bottom)))
        );
        let (x, y) = g.checker(Slot::Bar(Seat::Top), 0);
        assert_eq!(
            g.hit(x, y, None, None, None),
            Some(Hit::Slot(Slot::Bar(Seat::Top)))
        );
        for seat in [Seat::Bottom, Seat::Top] {
            let (x, y) = g.tray(seat).centre();
            assert_eq!(
                g.hit(x, y, None, None, None),
                Some(Hit::Slot(Slot::Tray(seat)))
            );
            let (x, y) = g.dice(seat)[1].centre();
            assert_eq!(g.hit(x, y, None, None, Some(seat)), Some(Hit::Dice(seat)));
            assert_eq!(g.hit(x, y, None, None, None), Some(Hit::Half(seat)));
        }
        for place in [
            CubePlace::Centre,
            CubePlace::Owned(Seat::Top),
            CubePlace::Owned(Seat::Bottom),
            CubePlace::Offered(Seat::Bottom),
        ] {
            let (x, y) = g.cube(place).centre();
            assert_eq!(g.hit(x, y, Some(place), None, None), Some(Hit::Cube));
        }
        assert!(g.cube(CubePlace::Owned(Seat::Top)).y < g.cube(CubePlace::Centre).y);
        assert!(g.cube(CubePlace::Owned(Seat::Bottom)).y > g.cube(CubePlace::Centre).y);
    }

    #[test]
    fn mover_numbering() {
        assert_eq!(Slot::from_mover(Seat::Bottom, 6), Slot::Point(6));
        assert_eq!(Slot::from_mover(Seat::Top, 6), Slot::Point(19));
        assert_eq!(Slot::from_mover(Seat::Top, 25), Slot::Bar(Seat::Top));
        assert_eq!(Slot::from_mover(Seat::Top, 0), Slot::Tray(Seat::Top));
        assert_eq!(Slot::Point(19).to_mover(Seat::Top), Some(6));
        assert_eq!(Slot::Bar(Seat::Bottom).to_mover(Seat::Top), None);
        assert_eq!(Slot::Tray(Seat::Bottom).to_mover(Seat::Bottom), Some(0));
    }

    #[test]
    fn zero_size_is_harmless() {
        let g = Geometry::new(0.0, 0.0);
        assert_eq!(g.hit(10.0, 10.0, None, None, None), None);
        assert_eq!(g.drop_slot(1.0, 1.0), None);
    }
}
