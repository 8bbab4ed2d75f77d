//! The equity graph without GTK: one point per analysed decision of the match — player 0's
//! money equity (normalised, per cube) or, in match play, player 0's match winning chance after
//! the decision — with its mark, and the geometry that places the points in a widget and finds
//! the point under the pointer.
//!
//! The figures are the stored analysis: a checker play's value is the equity of the play made
//! (the mover's, after the play); a double, take or pass the value of what was done in the cube
//! decision (no double, double/take, double/pass). In match play the normalised equity is turned
//! into match winning chance with the match equity table at the score and cube of the moment.

use cubeful_engine::analysis::marks::{cube_judgement, doubler_of, MwcScaleF32};
use cubeful_engine::cube::met::{MatchEquityTable, MatchScore};
use cubeful_engine::game::record::analysis::Skill;
use cubeful_engine::game::record::{MatchRecord, RecordAction, Replay, Snapshot};
use cubeful_engine::Player;

/// One point of the graph.
#[derive(Clone, Debug, PartialEq)]
pub struct GraphPoint {
    /// The action (both from 0).
    pub game: usize,
    pub entry: usize,
    /// Player 0's equity, or match winning chance (0 to 1) in match play.
    pub value: f64,
    /// The mark of the decision (the worse of the play's and the cube decision's).
    pub skill: Skill,
    /// Who decided.
    pub player: Player,
}

/// The points of a match, in record order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GraphData {
    pub points: Vec<GraphPoint>,
    /// The index in `points` of each game's first point (games without points are left out).
    pub game_starts: Vec<usize>,
    /// Money play: values are equities; otherwise match winning chances.
    pub money: bool,
}

impl GraphData {
    /// The points of `record` (replayed as `replay`).
    pub fn new(record: &MatchRecord, replay: &Replay) -> GraphData {
        let met = MatchEquityTable::kazaross_xg2();
        let money = record.info.rules.match_length == 0;
        let mut data = GraphData {
            money,
            ..GraphData::default()
        };
        for (g, (game, replayed)) in record.games.iter().zip(replay.games()).enumerate() {
            let first = data.points.len();
            for (i, e) in game.entries.iter().enumerate() {
                let (Some(a), Some(before)) = (e.analysis.as_deref(), replayed.before(i)) else {
                    continue;
                };
                let player = e.action.player();
                // The mover's (or doubler's) normalised equity after the decision.
                let value = match &e.action {
                    RecordAction::Move { .. } => a
                        .moves
                        .as_ref()
                        .and_then(|m| m.candidates.get(m.played))
                        .and_then(|c| c.eval.as_ref())
                        .map(|ev| (player, ev.equity)),
                    RecordAction::Double { .. }
                    | RecordAction::Take { .. }
                    | RecordAction::Drop { .. } => {
                        let doubler = doubler_of(&e.action);
                        match (doubler, a.cube.as_ref()) {
                            (Some(d), Some(cube)) => {
                                let j = cube_judgement(cube, before, d, &record.info, met);
                                let v = match &e.action {
                                    RecordAction::Double { .. } => {
                                        // Answered by the next entry: take or pass.
                                        let passed = matches!(
                                            game.entries.get(i + 1).map(|n| &n.action),
                                            Some(RecordAction::Drop { .. })
                                        );
                                        if passed {
                                            j.double_pass
                                        } else {
                                            j.double_take
                                        }
                                    }
                                    RecordAction::Take { .. } => j.double_take,
                                    _ => j.double_pass,
                                };
                                Some((d, v))
                            }
                            _ => None,
                        }
                    }
                    _ => None,
                };
                let Some((owner, equity)) = value else {
                    continue;
                };
                if !equity.is_finite() {
                    continue;
                }
                let value = if money {
                    equity
                } else {
                    mwc(equity, before, owner, met)
                };
                let value = if owner == Player::Zero {
                    value
                } else if money {
                    -value
                } else {
                    1.0 - value
                };
                data.points.push(GraphPoint {
                    game: g,
                    entry: i,
                    value,
                    skill: a.skill.max(a.cube_skill),
                    player,
                });
            }
            if data.points.len() > first {
                data.game_starts.push(first);
            }
        }
        data
    }

    /// The index of the point of action `entry` of game `game`, or of the last point before
    /// it (the graph's cursor while an unanalysed action is selected).
    pub fn index_of(&self, game: usize, entry: usize) -> Option<usize> {
        self.points
            .iter()
            .rposition(|p| (p.game, p.entry) <= (game, entry))
    }

    /// The range of values the vertical axis shows: 0 to 1 for match winning chances; for
    /// money, symmetric around 0 and at least −1 to +1.
    pub fn range(&self) -> (f64, f64) {
        if !self.money {
            return (0.0, 1.0);
        }
        let m = self
            .points
            .iter()
            .map(|p| p.value.abs())
            .fold(1.0f64, f64::max);
        let m = (m * 4.0).ceil() / 4.0;
        (-m, m)
    }
}

/// Match winning chance of `player` for a normalised equity at `before` (score and cube).
fn mwc(equity: f64, before: &Snapshot, player: Player, met: &MatchEquityTable) -> f64 {
    match MatchScore::from_state(&before.state) {
        Some(score) => f64::from(
            MwcScaleF32::new(met, &score, player, before.state.cube_value()).mwc(equity as f32),
        )
        .clamp(0.0, 1.0),
        None => equity,
    }
}

/// Where the graph is drawn in a widget: the plot area inside margins, and the values shown.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Geometry {
    /// The plot area: left, top, width, height (widget coordinates).
    pub left: f64,
    pub top: f64,
    pub width: f64,
    pub height: f64,
    /// Number of points.
    pub count: usize,
    /// Values at the bottom and the top.
    pub min: f64,
    pub max: f64,
}

/// Margins of the plot area: room for the axis labels on the left and at the bottom.
pub const MARGIN_LEFT: f64 = 56.0;
pub const MARGIN_RIGHT: f64 = 16.0;
pub const MARGIN_TOP: f64 = 28.0;
pub const MARGIN_BOTTOM: f64 = 32.0;

/// How far from a point (in pixels, horizontally) a click still picks it.
pub const HIT_DISTANCE: f64 = 12.0;

impl Geometry {
    /// The geometry of `data` in a widget of `width` × `height`.
    pub fn new(data: &GraphData, width: f64, height: f64) -> Geometry {
        let (min, max) = data.range();
        Geometry {
            left: MARGIN_LEFT,
            top: MARGIN_TOP,
            width: (width - MARGIN_LEFT - MARGIN_RIGHT).max(1.0),
            height: (height - MARGIN_TOP - MARGIN_BOTTOM).max(1.0),
            count: data.points.len(),
            min,
            max,
        }
    }

    /// The x coordinate of point `index`.
    pub fn x(&self, index: usize) -> f64 {
        if self.count <= 1 {
            return self.left + self.width / 2.0;
        }
        self.left + self.width * index as f64 / (self.count - 1) as f64
    }

    /// The y coordinate of `value` (clamped to the plot area).
    pub fn y(&self, value: f64) -> f64 {
        let span = (self.max - self.min).max(f64::EPSILON);
        let t = ((value - self.min) / span).clamp(0.0, 1.0);
        self.top + self.height * (1.0 - t)
    }

    /// The point nearest to `x` horizontally, if within [`HIT_DISTANCE`] (or, with many points
    /// close together, within half the distance between two points).
    pub fn hit(&self, x: f64, _y: f64) -> Option<usize> {
        if self.count == 0 {
            return None;
        }
        let step = if self.count > 1 {
            self.width / (self.count - 1) as f64
        } else {
            self.width
        };
        let index = if self.count > 1 {
            ((x - self.left) / step).round()
        } else {
            0.0
        };
        if index < 0.0 || index >= self.count as f64 {
            return None;
        }
        let index = index as usize;
        ((self.x(index) - x).abs() <= HIT_DISTANCE.max(step / 2.0)).then_some(index)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cubeful_engine::formats::match_file;

    fn load(name: &str) -> MatchRecord {
        let path = cubeful_testkit::shared_path("corpus/sgf").join(name);
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        match_file::read(&bytes).unwrap().record
    }

    #[test]
    fn an_analysed_match_gives_a_point_per_decision_in_record_order() {
        let record = load("gnubg-scripts_match1486073_analyzed.sgf");
        let replay = record.replay_lenient().unwrap().replay;
        let data = GraphData::new(&record, &replay);
        assert!(!data.money);
        let moves = record
            .games
            .iter()
            .flat_map(|g| &g.entries)
            .filter(|e| {
                matches!(e.action, RecordAction::Move { .. })
                    && e.analysis.as_ref().and_then(|a| a.moves.as_ref()).is_some()
            })
            .count();
        assert!(
            data.points.len() >= moves,
            "{} < {moves}",
            data.points.len()
        );
        assert!(data
            .points
            .windows(2)
            .all(|w| (w[0].game, w[0].entry) < (w[1].game, w[1].entry)));
        assert!(data.points.iter().all(|p| (0.0..=1.0).contains(&p.value)));
        assert_eq!(data.game_starts.len(), record.games.len());
        assert_eq!(data.game_starts[0], 0);
        // Errors are kept with their marks.
        assert!(data.points.iter().any(|p| p.skill >= Skill::Bad));
        // The first play of game 2, lasse's 24/20 13/10 at 2-0 Crawford, equity -0.025 for
        // lasse: player 0's MWC follows from it and lies on the right side of the score.
        let p = &data.points[data.index_of(1, 0).unwrap()];
        assert_eq!((p.game, p.entry), (1, 0));
        let lasse_is_zero = record.info.players[0] == "lasse";
        let lasse = if lasse_is_zero {
            p.value
        } else {
            1.0 - p.value
        };
        let score = record.games[1].score;
        let lasse_ahead = if lasse_is_zero {
            score[0] > score[1]
        } else {
            score[1] > score[0]
        };
        assert_eq!(lasse > 0.5, lasse_ahead, "{lasse} at {score:?}");
    }

    #[test]
    fn the_cursor_follows_the_last_point_up_to_the_selection() {
        let data = GraphData {
            points: [(0, 1), (0, 3), (1, 0)]
                .iter()
                .map(|&(game, entry)| GraphPoint {
                    game,
                    entry,
                    value: 0.5,
                    skill: Skill::None,
                    player: Player::Zero,
                })
                .collect(),
            game_starts: vec![0, 2],
            money: false,
        };
        assert_eq!(data.index_of(0, 0), None);
        assert_eq!(data.index_of(0, 1), Some(0));
        assert_eq!(data.index_of(0, 2), Some(0));
        assert_eq!(data.index_of(0, 9), Some(1));
        assert_eq!(data.index_of(1, 0), Some(2));
        assert_eq!(data.range(), (0.0, 1.0));
    }

    #[test]
    fn geometry_places_points_and_hits_the_nearest() {
        let data = GraphData {
            points: (0..11)
                .map(|i| GraphPoint {
                    game: 0,
                    entry: i,
                    value: if i % 2 == 0 { 1.5 } else { -0.2 },
                    skill: Skill::None,
                    player: Player::Zero,
                })
                .collect(),
            game_starts: vec![0],
            money: true,
        };
        assert_eq!(data.range(), (-1.5, 1.5));
        let g = Geometry::new(&data, 572.0, 200.0 + MARGIN_TOP + MARGIN_BOTTOM);
        assert_eq!(g.width, 500.0);
        assert_eq!(g.height, 200.0);
        assert_eq!(g.x(0), MARGIN_LEFT);
        assert_eq!(g.x(10), MARGIN_LEFT + 500.0);
        assert_eq!(g.y(1.5), MARGIN_TOP);
        assert_eq!(g.y(-1.5), MARGIN_TOP + 200.0);
        assert_eq!(g.y(0.0), MARGIN_TOP + 100.0);
        assert_eq!(g.y(9.0), MARGIN_TOP, "clamped");
        // Points 50 px apart: a click picks the nearest within 25 px.
        assert_eq!(g.hit(MARGIN_LEFT + 101.0, 0.0), Some(2));
        assert_eq!(g.hit(MARGIN_LEFT + 124.0, 0.0), Some(2));
        assert_eq!(g.hit(MARGIN_LEFT + 126.0, 0.0), Some(3));
        assert_eq!(g.hit(MARGIN_LEFT - 30.0, 0.0), None);
        assert_eq!(g.hit(MARGIN_LEFT + 540.0, 0.0), None);
        let empty = Geometry::new(&GraphData::default(), 100.0, 100.0);
        assert_eq!(empty.hit(50.0, 50.0), None);
    }
}
