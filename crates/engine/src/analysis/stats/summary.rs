//! Statistics of many records summed per player name: how each player did across all the
//! matches and sessions given (games, moves, error rate and rating, luck, results), printed as
//! one table. Match and money figures are kept apart, since their unnormalised units differ;
//! the normalised figures (EMG) add up across both.

use std::fmt::Write as _;

use serde::Serialize;

use super::figures::{rating, RatingScale};
use super::{MatchStatistics, PlayerStats};

/// One player's totals over many records.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct PlayerSummary {
    pub name: String,
    /// Records (matches or sessions) the player appears in.
    pub records: u32,
    /// Matches played to the end, won and lost.
    pub matches_won: u32,
    pub matches_lost: u32,
    /// Games finished, won and lost.
    pub games_won: u32,
    pub games_lost: u32,
    /// Points of the games won and lost (cube and gammons included).
    pub points_won: u32,
    pub points_lost: u32,
    /// The sums of every record's statistics for this player.
    pub stats: PlayerStats,
}

impl PlayerSummary {
    /// Overall normalised error per decision (unforced moves and close cube decisions).
    pub fn error_rate(&self) -> Option<f32> {
        let decisions = self.stats.unforced_moves + self.stats.close_cube_decisions;
        (decisions > 0).then(|| self.stats.overall_cost().normalised / decisions as f32)
    }

    /// The rating of [`PlayerSummary::error_rate`].
    pub fn rating(&self, scale: RatingScale) -> Option<&'static str> {
        self.error_rate().map(|r| rating(r, scale))
    }

    /// Normalised luck per move.
    pub fn luck_rate(&self) -> Option<f32> {
        (self.stats.total_moves > 0)
            .then(|| self.stats.luck.normalised / self.stats.total_moves as f32)
    }
}

/// Totals per player name, in the order names were first seen.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Summary {
    pub players: Vec<PlayerSummary>,
}

impl Summary {
    /// An empty summary.
    pub fn new() -> Summary {
        Summary::default()
    }

    fn player(&mut self, name: &str) -> &mut PlayerSummary {
        let index = match self.players.iter().position(|p| p.name == name) {
            Some(i) => i,
            None => {
                self.players.push(PlayerSummary {
                    name: name.to_string(),
                    ..PlayerSummary::default()
                });
                self.players.len() - 1
            }
        };
        &mut self.players[index]
    }

    /// Adds one record's statistics. A player who plays both sides of a record (the same
    /// name twice) gets both sides' figures.
    pub fn add(&mut self, stats: &MatchStatistics) {
        let winner = match_winner(stats);
        for side in 0..2 {
            let name = stats.players[side].clone();
            let same_name = stats.players[0] == stats.players[1];
            let p = self.player(&name);
            if side == 0 || !same_name {
                p.records += 1;
            }
            match winner {
                Some(w) if w == side => p.matches_won += 1,
                Some(_) => p.matches_lost += 1,
                None => {}
            }
            for game in &stats.games {
                if let Some((w, points)) = game.result {
                    if w == side {
                        p.games_won += 1;
                        p.points_won += points;
                    } else {
                        p.games_lost += 1;
                        p.points_lost += points;
                    }
                }
            }
            p.stats.add(&stats.total.players[side]);
        }
    }

    /// The summary as a text table, one line per player, with a header line.
    pub fn table(&self, scale: RatingScale) -> String {
        let width = self
            .players
            .iter()
            .map(|p| p.name.chars().count())
            .max()
            .unwrap_or(0)
            .max("Player".len());
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{:<width$}  {:>7}  {:>9}  {:>6}  {:>8}  {:>10}  {:<17}  {:>10}  {:>8}",
            "Player",
            "Records",
            "Games W-L",
            "Moves",
            "Unforced",
            "Error rate",
            "Rating",
            "Luck rate",
            "Matches"
        );
        for p in &self.players {
            let rate = p
                .error_rate()
                .map_or("n/a".to_string(), |r| format!("{:+.1}", -1000.0 * r));
            let luck = p
                .luck_rate()
                .map_or("n/a".to_string(), |r| format!("{:+.1}", 1000.0 * r));
            let pad = width - p.name.chars().count();
            let _ = writeln!(
                out,
                "{}{}  {:>7}  {:>9}  {:>6}  {:>8}  {:>10}  {:<17}  {:>10}  {:>8}",
                p.name,
                " ".repeat(pad),
                p.records,
                format!("{}-{}", p.games_won, p.games_lost),
                p.stats.total_moves,
                p.stats.unforced_moves,
                rate,
                p.rating(scale).unwrap_or("n/a"),
                luck,
                format!("{}-{}", p.matches_won, p.matches_lost)
            );
        }
        out.push_str("Error and luck rates in mEMG per decision and per move.\n");
        out
    }
}

/// The player (0 or 1) who won the match, if the record plays it to the end.
fn match_winner(stats: &MatchStatistics) -> Option<usize> {
    if stats.match_length == 0 {
        return None;
    }
    let last = stats.games.last()?;
    let (winner, points) = last.result?;
    let score = u32::from(last.score[winner.min(1)]) + points;
    (score >= u32::from(stats.match_length)).then_some(winner.min(1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::marks::Thresholds;
    use crate::analysis::stats::{Amount, GameStatistics, Statistics};

    fn record(players: [&str; 2], length: u16, games: &[(usize, u32)]) -> MatchStatistics {
        let mut total = Statistics::new(length);
        let mut list = Vec::new();
        let mut score = [0u16; 2];
        for (i, &(w, points)) in games.iter().enumerate() {
            let mut s = Statistics::new(length);
            s.games = 1;
            for p in 0..2 {
                s.players[p].total_moves = 20;
                s.players[p].unforced_moves = 15;
                s.players[p].checker_cost = Amount::new(0.1 * (p as f32 + 1.0), 0.01);
                s.players[p].luck = Amount::new(if p == w { 0.2 } else { -0.2 }, 0.02);
            }
            total.add(&s);
            list.push(GameStatistics {
                number: i + 1,
                score,
                crawford: false,
                result: Some((w, points)),
                statistics: s,
            });
            score[w] += points as u16;
        }
        MatchStatistics {
            players: players.map(String::from),
            match_length: length,
            games: list,
            total,
            marked: Vec::new(),
            thresholds: Thresholds::default(),
        }
    }

    #[test]
    fn sums_per_player_name() {
        let mut summary = Summary::new();
        summary.add(&record(["ann", "bob"], 3, &[(0, 2), (1, 1), (0, 1)]));
        summary.add(&record(["bob", "cy"], 5, &[(0, 2)]));
        assert_eq!(summary.players.len(), 3);
        let ann = &summary.players[0];
        assert_eq!((ann.records, ann.matches_won, ann.matches_lost), (1, 1, 0));
        assert_eq!((ann.games_won, ann.games_lost), (2, 1));
        assert_eq!((ann.points_won, ann.points_lost), (3, 1));
        assert_eq!(ann.stats.total_moves, 60);
        let bob = &summary.players[1];
        assert_eq!(bob.records, 2);
        assert_eq!((bob.matches_won, bob.matches_lost), (0, 1));
        assert_eq!((bob.games_won, bob.games_lost), (2, 2));
        assert_eq!(bob.stats.total_moves, 80);
        assert_eq!(bob.stats.unforced_moves, 60);
        // Bob's checker cost: 3 games × 0.2 as player 1, 1 game × 0.1 as player 0.
        assert!((bob.stats.checker_cost.normalised - 0.7).abs() < 1e-6);
        let rate = bob.error_rate().unwrap();
        assert!((rate - 0.7 / 60.0).abs() < 1e-7);
        assert_eq!(bob.rating(RatingScale::Gnubg107), Some("Advanced"));
        let table = summary.table(RatingScale::Gnubg107);
        assert_eq!(table.lines().count(), 5, "{table}");
        assert!(table.lines().nth(2).unwrap().starts_with("bob "), "{table}");
        assert!(table.contains("-11.7"), "{table}");
    }
}
