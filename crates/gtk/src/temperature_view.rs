//! The temperature map window's side without GTK: what a map job computes on a worker (the
//! engine's `analysis::temperature`: [`temperature_map_with_progress`] and, for a cube
//! decision, [`temperature_maps_for_cube`]), and the texts and colour classes of the cells.
//!
//! A map is of the position before the roll, for the player on roll, whatever dice the board
//! shows. It is a cube decision (two maps: no double and double/take) when no dice are rolled,
//! no double is on offer and the player on roll may double.

use cubeful_engine::analysis::analyse::AnalysisLevel;
use cubeful_engine::analysis::hint::cube_context;
use cubeful_engine::analysis::temperature::{
    common_range, heat, temperature_map_with_progress, temperature_maps_for_cube, RollEntry,
    TemperatureMap, ROLLS,
};
use cubeful_engine::search::{EvalSettings, Search};
use cubeful_engine::{MatchState, Position};

use crate::i18n::{gettext, gettext_f};

/// What a map is asked for: the position before the roll (seen from the player on roll of
/// `state`), its match state and the beaver rule, and the depth of each roll's play.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MapRequest {
    pub position: Position,
    pub state: MatchState,
    pub beavers: bool,
    pub plies: u8,
}

/// The maps of a position.
#[derive(Clone, Debug, PartialEq)]
pub enum Maps {
    /// The position's map.
    Single(TemperatureMap),
    /// A cube decision: the map with the cube as it is, and after double/take (both in the
    /// units of the cube before the double, coloured on one scale).
    Cube {
        no_double: TemperatureMap,
        double_take: TemperatureMap,
    },
}

impl Maps {
    /// The maps, no double first.
    pub fn all(&self) -> Vec<&TemperatureMap> {
        match self {
            Maps::Single(m) => vec![m],
            Maps::Cube {
                no_double,
                double_take,
            } => vec![no_double, double_take],
        }
    }

    /// The scale every map shown is coloured on.
    pub fn range(&self) -> (f32, f32) {
        let maps: Vec<TemperatureMap> = self.all().into_iter().cloned().collect();
        common_range(&maps)
    }
}

/// Why there is no map.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MapProblem {
    /// The game on the board is over.
    GameOver,
}

impl MapProblem {
    /// One sentence for the user.
    pub fn text(self) -> String {
        match self {
            MapProblem::GameOver => {
                gettext("The game is over: there is no roll to map in this position.")
            }
        }
    }
}

/// The evaluation settings of a map at `plies`: the analysis levels' (0-ply is GNU
/// Backgammon's Expert and its default for the map).
pub fn map_settings(plies: u8) -> EvalSettings {
    *AnalysisLevel::plies(plies).eval_settings()
}

/// The request asks for the two maps of a cube decision.
pub fn is_cube_decision(request: &MapRequest) -> bool {
    let s = &request.state;
    s.dice.is_none()
        && !s.doubled
        && s.resigned.is_none()
        && cube_context(s, request.beavers).can_double()
}

/// The units of work of a request: 21 rolls a map.
pub fn work(request: &MapRequest) -> u64 {
    if is_cube_decision(request) {
        2 * ROLLS as u64
    } else {
        ROLLS as u64
    }
}

/// Computes the maps of `request` on a worker. `progress` is told the rolls done of
/// [`work`] and returns false to stop: then `Ok(None)`.
pub fn compute(
    search: &mut Search,
    request: &MapRequest,
    progress: &mut dyn FnMut(u64, u64) -> bool,
) -> Result<Option<Maps>, MapProblem> {
    if request.position.result().is_some() {
        return Err(MapProblem::GameOver);
    }
    let total = work(request);
    let ctx = cube_context(&request.state, request.beavers);
    let settings = map_settings(request.plies);
    let Some(no_double) =
        temperature_map_with_progress(search, &request.position, &ctx, &settings, &mut |done| {
            progress(done as u64, total)
        })
    else {
        return Ok(None);
    };
    if !is_cube_decision(request) {
        return Ok(Some(Maps::Single(no_double)));
    }
    // The no-double map again (its plays are in the search's cache), then double/take.
    match temperature_maps_for_cube(search, &request.position, &ctx, &settings) {
        Ok((_, double_take)) => {
            if !progress(total, total) {
                return Ok(None);
            }
            Ok(Some(Maps::Cube {
                no_double,
                double_take,
            }))
        }
        // Cannot happen (checked above); the single map is still right.
        Err(_) => Ok(Some(Maps::Single(no_double))),
    }
}

/// What one cell shows.
#[derive(Clone, Debug, PartialEq)]
pub struct CellView {
    /// The dice, row die first: "63".
    pub roll: String,
    /// The best play in GNU Backgammon's notation ("Cannot move" when none).
    pub play: String,
    /// The equity after it: "+0.123".
    pub equity: String,
    /// The roll, its play, equity, match winning chance and rank, for the tooltip.
    pub tooltip: String,
    /// The CSS class of its colour (`heat-0` the worst roll … `heat-10` the best).
    pub heat_class: &'static str,
    /// 0 to 1 from the worst roll to the best of every map shown.
    pub heat: f32,
}

/// The equity as the app writes it.
pub fn equity_text(equity: f32) -> String {
    format!("{equity:+.3}")
}

/// The CSS class of a heat (0 to 1) in eleven steps.
pub fn heat_class(heat: f32) -> &'static str {
    const CLASSES: [&str; 11] = [
        "heat-0", "heat-1", "heat-2", "heat-3", "heat-4", "heat-5", "heat-6", "heat-7", "heat-8",
        "heat-9", "heat-10",
    ];
    let step = (heat.clamp(0.0, 1.0) * 10.0).round() as usize;
    CLASSES[step.min(10)]
}

/// The cell of row `die1`, column `die2` showing `entry`, coloured on `range`.
pub fn cell_view(die1: u8, die2: u8, entry: &RollEntry, range: (f32, f32)) -> CellView {
    let play = if entry.text.is_empty() {
        gettext("Cannot move")
    } else {
        entry.text.clone()
    };
    let equity = equity_text(entry.equity);
    let roll = format!("{die1}{die2}");
    let mut tooltip = gettext_f(
        "{}: {}, equity {}, rank {} of 21",
        &[&roll, &play, &equity, &entry.rank.to_string()],
    );
    if let Some(mwc) = entry.mwc {
        tooltip.push_str(" · ");
        tooltip.push_str(&gettext_f("MWC {}", &[&percent(mwc)]));
    }
    let h = heat(entry.equity, range);
    CellView {
        roll,
        play,
        equity,
        tooltip,
        heat_class: heat_class(h),
        heat: h,
    }
}

/// "Average: +0.123" (with the match winning chance in match play).
pub fn average_text(map: &TemperatureMap) -> String {
    let average = equity_text(map.average);
    match map.average_mwc {
        Some(mwc) => gettext_f("Average: {} (MWC {})", &[&average, &percent(mwc)]),
        None => gettext_f("Average: {}", &[&average]),
    }
}

fn percent(p: f32) -> String {
    format!("{:.1}%", 100.0 * p)
}

/// The CSS of the heat classes: white for the worst roll to red for the best, as GNU
/// Backgammon shades its map, with dark text on every shade.
pub fn heat_css() -> String {
    let mut css = String::new();
    for step in 0..=10 {
        let h = f64::from(step) / 10.0;
        let gb = (255.0 * (1.0 - 0.75 * h)).round() as u8;
        css.push_str(&format!(
            ".temperature-cell.heat-{step} {{ background-color: rgb(255, {gb}, {gb}); \
             color: #1e1e1e; }}\n"
        ));
    }
    css.push_str(
        ".temperature-cell { border-radius: 6px; padding: 4px 6px; }\n\
         .temperature-cell .dim { opacity: 0.7; }\n",
    );
    css
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use cubeful_engine::analysis::temperature::temperature_map;
    use cubeful_engine::eval::Nets;
    use cubeful_engine::gnubg_id;
    use cubeful_engine::rules::position::Side;
    use cubeful_engine::Dice;

    use super::*;

    fn search() -> Search {
        Search::new(Arc::new(Nets::embedded()))
    }

    fn request(id: &str, plies: u8) -> MapRequest {
        let (position, state) = gnubg_id::decode(id).expect("valid ID");
        MapRequest {
            position,
            state,
            beavers: true,
            plies,
        }
    }

    /// The starting position, money, cube centred, no dice: a cube decision.
    const START: &str = "4HPwATDgc/ABMA:cAkAAAAAAAAA";

    #[test]
    fn a_cube_decision_gives_both_maps_of_the_engine() {
        let r = request(START, 0);
        assert!(is_cube_decision(&r));
        assert_eq!(work(&r), 42);
        let mut seen = Vec::new();
        let maps = compute(&mut search(), &r, &mut |d, t| {
            seen.push((d, t));
            true
        })
        .unwrap()
        .unwrap();
        let Maps::Cube {
            no_double,
            double_take,
        } = &maps
        else {
            panic!("two maps expected, got {maps:?}");
        };
        let ctx = cube_context(&r.state, r.beavers);
        let mut s = search();
        let expected = temperature_map(&mut s, &r.position, &ctx, &map_settings(0));
        assert_eq!(no_double, &expected);
        let (_, dt) =
            temperature_maps_for_cube(&mut s, &r.position, &ctx, &map_settings(0)).unwrap();
        assert_eq!(double_take, &dt);
        assert_eq!(seen.first(), Some(&(1, 42)));
        assert_eq!(seen.last(), Some(&(42, 42)));
        // One scale for both maps.
        let (lo, hi) = maps.range();
        assert!(lo < hi);
        assert!(no_double
            .entries()
            .iter()
            .chain(double_take.entries())
            .all(|e| (lo..=hi).contains(&e.equity)));
    }

    #[test]
    fn dice_rolled_give_one_map_and_stopping_gives_none() {
        let mut r = request(START, 0);
        r.state.dice = Some(Dice::new(6, 5).unwrap());
        assert!(!is_cube_decision(&r));
        assert_eq!(work(&r), 21);
        let stopped = compute(&mut search(), &r, &mut |done, _| done < 5).unwrap();
        assert_eq!(stopped, None);
        let maps = compute(&mut search(), &r, &mut |_, _| true)
            .unwrap()
            .unwrap();
        assert!(matches!(maps, Maps::Single(ref m) if m.entries().len() == 21));
    }

    #[test]
    fn cells_show_the_roll_play_and_equity_coloured_by_rank() {
        let r = request(START, 0);
        let ctx = cube_context(&r.state, r.beavers);
        let map = temperature_map(&mut search(), &r.position, &ctx, &map_settings(0));
        let range = map.range();
        let best = map.ranked()[0].clone();
        let (d1, d2) = (best.dice.high(), best.dice.low());
        let cell = cell_view(d1, d2, &best, range);
        assert_eq!(cell.roll, format!("{d1}{d2}"));
        assert_eq!(cell.play, best.text);
        assert_eq!(cell.equity, format!("{:+.3}", best.equity));
        assert_eq!(cell.heat_class, "heat-10");
        let worst = map.ranked()[20].clone();
        let cell = cell_view(worst.dice.high(), worst.dice.low(), &worst, range);
        assert_eq!(cell.heat_class, "heat-0");
        assert!(average_text(&map).contains(&format!("{:+.3}", map.average)));
        assert_eq!(heat_class(0.44), "heat-4");
        assert_eq!(heat_class(2.0), "heat-10");
        assert!(heat_css().contains(".temperature-cell.heat-10"));
    }

    #[test]
    fn a_finished_game_has_no_map() {
        let mut r = request(START, 0);
        // Nothing left of the player on roll: he has borne off.
        let theirs = r.position.side(Side::Opponent);
        r.position = Position::from_sides(&[0; 25], &theirs).unwrap();
        assert_eq!(
            compute(&mut search(), &r, &mut |_, _| true),
            Err(MapProblem::GameOver)
        );
    }
}
