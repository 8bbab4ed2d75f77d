//! Match statistics from stored analysis against GNU Backgammon:
//!
//! * for every analysed SGF file of the corpus with an oracle (`shared/corpus/sgf/statistics/`,
//!   GNU Backgammon 1.07's `show statistics match`), our report is the same text line for line;
//! * a match file without analysis prints what GNU Backgammon prints for it;
//! * the charlot files (analysis written by 1.08) load and give statistics;
//! * when GNU Backgammon is installed, a money session and a match it plays and analyses itself
//!   (beavers, raccoons, redoubles) give the report it prints after loading the saved file;
//! * golden tests check the layout and arithmetic against the two reports captured in the
//!   research notes (analysis.md §3.4), without the corpus.
//!
//! Missing `shared/` or GNU Backgammon skip their tests with a loud message, and fail under
//! `CI=true`.

use std::path::{Path, PathBuf};

use cubeful_engine::analysis::marks::Thresholds;
use cubeful_engine::analysis::stats::figures::RatingScale;
use cubeful_engine::analysis::stats::report::{report, report_with, ReportStyle};
use cubeful_engine::analysis::stats::{
    match_statistics, Amount, CubeError, GameStatistics, MatchStatistics, PlayerStats, Statistics,
    StatsSettings,
};
use cubeful_engine::formats::match_file;
use cubeful_testkit::ScratchDir;

fn statistics_of(path: &Path) -> MatchStatistics {
    let bytes = std::fs::read(path).unwrap();
    let loaded = match_file::read(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    match_statistics(&loaded.record, &StatsSettings::default())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Compares two reports line by line; the differences, one message each.
fn differences(name: &str, expected: &str, ours: &str) -> Vec<String> {
    let (e, o): (Vec<&str>, Vec<&str>) =
        (expected.split('\n').collect(), ours.split('\n').collect());
    let mut out = Vec::new();
    for (i, (a, b)) in e.iter().zip(&o).enumerate() {
        if a != b {
            out.push(format!("{name}:{}:\n  gnubg: {a:?}\n  ours:  {b:?}", i + 1));
        }
    }
    if e.len() != o.len() {
        out.push(format!("{name}: {} lines, ours {}", e.len(), o.len()));
    }
    out
}

#[test]
fn reports_are_gnubgs_line_for_line() {
    let Some(shared) = cubeful_testkit::optional_shared_dir(
        "the comparison of corpus statistics with GNU Backgammon's",
    ) else {
        return;
    };
    let oracle_dir = shared.join("corpus/sgf/statistics");
    let mut compared = 0;
    let mut failures = Vec::new();
    let mut oracles: Vec<PathBuf> = std::fs::read_dir(&oracle_dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    oracles.sort();
    for oracle in oracles {
        let stem = oracle.file_stem().unwrap().to_string_lossy().into_owned();
        let sgf = shared.join("corpus/sgf").join(format!("{stem}.sgf"));
        let expected = std::fs::read_to_string(&oracle).unwrap();
        let ours = report(&statistics_of(&sgf));
        failures.extend(differences(&stem, &expected, &ours));
        compared += 1;
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(compared, 4, "oracle files compared");
}

/// GNU Backgammon 1.07.001's `show statistics match` after `import mat` of
/// `corpus/mat/galaxy/gnubg-scripts_match1486073.txt`, a match without analysis.
const UNANALYSED: &[&str] = &[
    "Player                                   lasse                   jonnyb1169             ",
    "",
    "Chequerplay statistics",
    "",
    "Total moves                               55                      54                    ",
    "Unforced moves                             0                       0                    ",
    "Unmarked moves                            55                      54                    ",
    "Moves marked doubtful                      0                       0                    ",
    "Moves marked bad                           0                       0                    ",
    "Moves marked very bad                      0                       0                    ",
    "Error total EMG (MWC)                         -0.000 ( -0.000%)       -0.000 ( -0.000%) ",
    "Error rate mEMG (MWC)                         -0.0   ( -0.000%)       -0.0   ( -0.000%) ",
    "Chequerplay rating                       n/a                     n/a                    ",
    "",
    "",
    "Luck statistics",
    "",
    "Rolls marked very lucky                    0                       0                    ",
    "Rolls marked lucky                         0                       0                    ",
    "Rolls unmarked                             0                       0                    ",
    "Rolls marked unlucky                       0                       0                    ",
    "Rolls marked very unlucky                  0                       0                    ",
    "Luck total EMG (MWC)                          +0.000 ( +0.000%)       +0.000 ( +0.000%) ",
    "Luck rate mEMG (MWC)                          +0.0   ( +0.000%)       +0.0   ( +0.000%) ",
    "Luck rating                              None                    None                   ",
    "",
    "",
    "Cube statistics",
    "",
    "Total cube decisions                       0                       0                    ",
    "Close or actual cube decisions             0                       0                    ",
    "Doubles                                    0                       0                    ",
    "Takes                                      0                       0                    ",
    "Passes                                     0                       0                    ",
    "Missed doubles below CP (EMG (MWC))        0                       0                    ",
    "Missed doubles above CP (EMG (MWC))        0                       0                    ",
    "Wrong doubles below DP (EMG (MWC))         0                       0                    ",
    "Wrong doubles above TG (EMG (MWC))         0                       0                    ",
    "Wrong takes (EMG (MWC))                    0                       0                    ",
    "Wrong passes (EMG (MWC))                   0                       0                    ",
    "Error total EMG (MWC)                         -0.000 ( -0.000%)       -0.000 ( -0.000%) ",
    "Error rate mEMG (MWC)                         -0.0   ( -0.000%)       -0.0   ( -0.000%) ",
    "Cube decision rating                     n/a                     n/a                    ",
    "",
    "",
    "Overall statistics",
    "",
    "Error total EMG (MWC)                         -0.000 ( -0.000%)       -0.000 ( -0.000%) ",
    "Error rate mEMG (MWC)                         -0.0   ( -0.000%)       -0.0   ( -0.000%) ",
    "Snowie error rate                             -0.0   ( +0.000%)       -0.0   ( +0.000%) ",
    "Overall rating                           n/a                     n/a                    ",
    "Actual result                             +50.00%                 -50.00%               ",
    "Luck adjusted result                      +50.00%                 -50.00%               ",
    "Luck based FIBS rating diff.             n/a                                            ",
    "Error based abs. FIBS rating             n/a                     n/a                    ",
    "Chequerplay errors rating loss           n/a                     n/a                    ",
    "Cube errors rating loss                  n/a                     n/a                    ",
    "",
    "",
    "",
];

#[test]
fn a_match_without_analysis_prints_what_gnubg_prints() {
    let Some(shared) = cubeful_testkit::optional_shared_dir(
        "the comparison of corpus statistics with GNU Backgammon's",
    ) else {
        return;
    };
    let path = shared.join("corpus/mat/galaxy/gnubg-scripts_match1486073.txt");
    let ours = report(&statistics_of(&path));
    let expected = UNANALYSED.join("\n") + "\n";
    let failures = differences("unanalysed .mat", &expected, &ours);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn matches_with_analysis_written_by_gnubg_1_08_load_and_give_statistics() {
    let Some(shared) = cubeful_testkit::optional_shared_dir(
        "the comparison of corpus statistics with GNU Backgammon's",
    ) else {
        return;
    };
    for name in [
        "gnubgparser_charlot1-charlot2_7p_2025-11-08-2305.sgf",
        "gnubgparser_charlot1-charlot2_7p_2025-11-08-2308.sgf",
    ] {
        let stats = statistics_of(&shared.join("corpus/sgf").join(name));
        let p = &stats.total.players;
        for s in p {
            assert!(s.total_moves > 50 && s.unforced_moves > 30, "{name}: {s:?}");
            assert!(s.total_cube_decisions > 0, "{name}: {s:?}");
            // 1.08 writes LU[-inf] for rolls it did not analyse: no luck is counted.
            assert_eq!(s.rolls_by_luck.iter().sum::<u32>(), 0, "{name}");
            assert_eq!(
                s.moves_by_skill.iter().sum::<u32>(),
                s.total_moves,
                "{name}"
            );
        }
        // charlot1 and charlot2 are bots that played the analyser's best play every time.
        assert_eq!(p[0].checker_cost, Amount::default(), "{name}");
        assert!(p[0].doubles + p[1].doubles > 0, "{name}");
        // The match was played out: ±50%.
        assert!((p[0].actual_result.abs() - 0.5).abs() < 1e-6, "{name}");
        let text = report(&stats);
        assert_eq!(text.lines().count(), 60, "{name}:\n{text}");
    }
}

/// Runs GNU Backgammon in terminal mode on `script`; its standard output.
fn gnubg(gnubg: &Path, home: &Path, script: &str) -> String {
    let out = cubeful_testkit::run_gnubg_script(gnubg, home, script);
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// GNU Backgammon's `show statistics match` for `file`, opened with `open` (`load match`,
/// `import mat`), from the `Player` line on.
fn gnubg_report(program: &Path, home: &Path, open: &str, file: &Path) -> String {
    let out = gnubg(
        program,
        home,
        &format!("{open} {}\nshow statistics match\nquit\n", file.display()),
    );
    let start = out
        .find("Player  ")
        .unwrap_or_else(|| panic!("{}: {out}", file.display()));
    let report = &out[start..];
    report
        .find("\n\n\n\n")
        .map_or(report, |end| &report[..end + 4])
        .to_string()
}

/// Every SGF file of the corpus without an oracle file (the charlot matches, which 1.07 reads
/// after all, and the paired copies), and a sample of `.mat` files without analysis, against
/// the report GNU Backgammon prints for them.
#[test]
fn corpus_files_without_an_oracle_give_gnubgs_report() {
    let Some(shared) = cubeful_testkit::optional_shared_dir(
        "the comparison of corpus statistics with GNU Backgammon's",
    ) else {
        return;
    };
    let Some(program) =
        cubeful_testkit::gnubg("the comparison of the statistics of corpus files with its own")
    else {
        return;
    };
    let home = ScratchDir::new("stats-corpus");
    let mut files: Vec<(&str, PathBuf)> = Vec::new();
    for dir in ["corpus/sgf", "corpus/paired"] {
        for entry in std::fs::read_dir(shared.join(dir)).unwrap() {
            let path = entry.unwrap().path();
            let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
            let oracle = shared
                .join("corpus/sgf/statistics")
                .join(format!("{stem}.txt"));
            if path.extension().is_some_and(|e| e == "sgf") && !oracle.is_file() {
                files.push(("load match", path));
            }
        }
    }
    for (dir, take) in [("galaxy", 12), ("gnubg", 4), ("xg", 4)] {
        let mut mats: Vec<PathBuf> = std::fs::read_dir(shared.join("corpus/mat").join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "txt" || e == "mat"))
            .collect();
        mats.sort();
        files.extend(mats.into_iter().take(take).map(|p| ("import mat", p)));
    }
    files.sort();
    assert!(files.len() >= 20, "{files:?}");
    let mut failures = Vec::new();
    for (open, file) in &files {
        let expected = gnubg_report(&program, &home, open, file);
        let ours = report(&statistics_of(file));
        let name = file.file_name().unwrap().to_string_lossy();
        failures.extend(differences(&name, &expected, &ours));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// GNU Backgammon plays (both sides by its 0-ply nets, player 0 with noise), analyses and saves
/// a match or session; then, loading the file in a fresh run, prints its statistics, which must
/// be ours. Statistics right after analysing differ in the last digit from those of the saved
/// file (the luck is written with five decimals), so the comparison is with the loaded file.
#[test]
fn gnubg_played_and_analysed_matches_and_sessions_give_its_report() {
    let Some(program) =
        cubeful_testkit::gnubg("the comparison of the statistics of matches it plays with its own")
    else {
        return;
    };
    let dir = ScratchDir::new("match-stats");
    let home = dir.join("home");
    std::fs::create_dir_all(&home).unwrap();
    let cases = [
        // A money session with GNU Backgammon's rules (Jacoby, beavers): beavers, raccoons,
        // missed redoubles, wrong takes.
        ("money", "new session", 5, 7),
        // A 7-point match: Crawford and post-Crawford games, cube errors at match scores.
        ("match", "new match 7", 0, 3),
    ];
    let mut failures = Vec::new();
    for (name, start, games, seed) in cases {
        let file = dir.join(format!("{name}.sgf"));
        let mut script = format!(
            "set automatic game off\nset display off\nset seed {seed}\n\
             set player 0 gnubg\nset player 1 gnubg\n\
             set player 0 chequerplay evaluation plies 0\n\
             set player 0 chequerplay evaluation noise 0.08\n\
             set player 0 cubedecision evaluation plies 0\n\
             set player 0 cubedecision evaluation noise 0.08\n\
             set player 1 chequerplay evaluation plies 0\n\
             set player 1 cubedecision evaluation plies 0\n\
             set analysis chequerplay evaluation plies 0\n\
             set analysis cubedecision evaluation plies 0\n{start}\n"
        );
        if games == 0 {
            // A match: play it out game by game.
            script.push_str(&"new game\n".repeat(12));
        } else {
            script.push_str(&"new game\n".repeat(games - 1));
        }
        script.push_str(&format!(
            "analyse match\nsave match {}\nquit\n",
            file.display()
        ));
        gnubg(&program, &home, &script);
        assert!(file.is_file(), "{name}: gnubg saved no match");
        let expected = gnubg_report(&program, &home, "load match", &file);
        let ours = report(&statistics_of(&file));
        failures.extend(differences(name, &expected, &ours));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

// ---------------------------------------------------------------------------------------------
// Golden tests of the layout and arithmetic (analysis.md §3.4), without the corpus.

fn player(f: impl FnOnce(&mut PlayerStats)) -> PlayerStats {
    let mut p = PlayerStats::default();
    f(&mut p);
    p
}

fn one_game(players: [&str; 2], length: u16, stats: Statistics) -> MatchStatistics {
    MatchStatistics {
        players: players.map(String::from),
        match_length: length,
        games: vec![GameStatistics {
            number: 1,
            score: [0, 0],
            crawford: false,
            result: Some((1, 2)),
            statistics: stats.clone(),
        }],
        total: stats,
        marked: Vec::new(),
        thresholds: Thresholds::default(),
    }
}

/// The captured 3-point match (gnubg 1.07.001, 0-ply analysis), verbatim.
const CAPTURED_MATCH: &[&str] = &[
    "Player                                   gnubg                   root                   ",
    "",
    "Chequerplay statistics",
    "",
    "Total moves                               27                      27                    ",
    "Unforced moves                            24                      20                    ",
    "Unmarked moves                            16                      25                    ",
    "Moves marked doubtful                      7                       2                    ",
    "Moves marked bad                           0                       0                    ",
    "Moves marked very bad                      4                       0                    ",
    "Error total EMG (MWC)                         -1.204 (-22.871%)       -0.125 ( -2.584%) ",
    "Error rate mEMG (MWC)                        -50.2   ( -0.953%)       -6.3   ( -0.129%) ",
    "Chequerplay rating                       Awful!                  Expert                 ",
    "",
    "",
    "Luck statistics",
    "",
    "Rolls marked very lucky                    0                       0                    ",
    "Rolls marked lucky                         1                       3                    ",
    "Rolls unmarked                            25                      21                    ",
    "Rolls marked unlucky                       1                       3                    ",
    "Rolls marked very unlucky                  0                       0                    ",
    "Luck total EMG (MWC)                          -1.027 (-20.120%)       +0.143 ( +5.645%) ",
    "Luck rate mEMG (MWC)                         -38.0   ( -0.745%)       +5.3   ( +0.209%) ",
    "Luck rating                              Bad dice, man!          None                   ",
    "",
    "",
    "Cube statistics",
    "",
    "Total cube decisions                      27                       6                    ",
    "Close or actual cube decisions             7                       4                    ",
    "Doubles                                    0                       1                    ",
    "Takes                                      1                       0                    ",
    "Passes                                     0                       0                    ",
    "Missed doubles below CP (EMG (MWC))        0                       0                    ",
    "Missed doubles above CP (EMG (MWC))        0                       0                    ",
    "Wrong doubles below DP (EMG (MWC))         0                       0                    ",
    "Wrong doubles above TG (EMG (MWC))         0                       0                    ",
    "Wrong takes (EMG (MWC))                    0                       0                    ",
    "Wrong passes (EMG (MWC))                   0                       0                    ",
    "Error total EMG (MWC)                         -0.000 ( -0.000%)       -0.000 ( -0.000%) ",
    "Error rate mEMG (MWC)                         -0.0   ( -0.000%)       -0.0   ( -0.000%) ",
    "Cube decision rating                     Supernatural            Supernatural           ",
    "",
    "",
    "Overall statistics",
    "",
    "Error total EMG (MWC)                         -1.204 (-22.871%)       -0.125 ( -2.584%) ",
    "Error rate mEMG (MWC)                        -38.8   ( -0.738%)       -5.2   ( -0.108%) ",
    "Snowie error rate                            -22.3   ( +0.000%)       -2.3   ( +0.000%) ",
    "Overall rating                           Awful!                  Expert                 ",
    "Actual result                             -50.00%                 +50.00%               ",
    "Luck adjusted result                      -24.24%                 +24.24%               ",
    "Luck based FIBS rating diff.             -530.68                                        ",
    "Error based abs. FIBS rating             1182.0                  1941.4                 ",
    "Chequerplay errors rating loss            868.0                   108.6                 ",
    "Cube errors rating loss                     0.0                     0.0                 ",
];

/// The sums behind the captured 3-point match.
fn captured_match() -> MatchStatistics {
    let mut s = Statistics::new(3);
    s.games = 1;
    s.players[0] = player(|p| {
        p.total_moves = 27;
        p.unforced_moves = 24;
        p.moves_by_skill = [16, 7, 0, 4];
        p.rolls_by_luck = [0, 1, 25, 1, 0];
        p.total_cube_decisions = 27;
        p.close_cube_decisions = 7;
        p.takes = 1;
        p.checker_cost = Amount::new(1.2037, 0.22871);
        p.luck = Amount::new(-1.027, -0.2012);
        p.actual_result = -0.5;
        p.luck_adjusted_result = -0.242351;
    });
    s.players[1] = player(|p| {
        p.total_moves = 27;
        p.unforced_moves = 20;
        p.moves_by_skill = [25, 2, 0, 0];
        p.rolls_by_luck = [0, 3, 21, 3, 0];
        p.total_cube_decisions = 6;
        p.close_cube_decisions = 4;
        p.doubles = 1;
        p.checker_cost = Amount::new(0.12549, 0.02584);
        p.luck = Amount::new(0.143, 0.05645);
        p.actual_result = 0.5;
        p.luck_adjusted_result = 0.242351;
    });
    one_game(["gnubg", "root"], 3, s)
}

#[test]
fn the_captured_match_report_is_reproduced() {
    let ours = report(&captured_match());
    let expected = CAPTURED_MATCH.join("\n") + "\n\n\n\n";
    let failures = differences("captured match", &expected, &ours);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_captured_rates_follow_from_the_sums() {
    // analysis.md §3.4's consistency checks.
    let stats = captured_match();
    let p = &stats.total.players;
    let overall = p[0].overall_rate().normalised;
    assert!((overall - 1.2037 / 31.0).abs() < 1e-6, "1.204 / (24 + 7)");
    let snowie = cubeful_engine::analysis::stats::figures::snowie_rate(&stats.total, 0);
    assert!((snowie - 1.2037 / 54.0).abs() < 1e-6, "1.204 / (27 + 27)");
    let luck = p[0].luck_rate().unwrap().normalised;
    assert!((luck + 1.027 / 27.0).abs() < 1e-6, "per total move");
    // −0.5 + 0.2012 + 0.0565 = −0.2424: the luck-adjusted result of a real record.
    assert!((-0.5 - p[0].luck.unnormalised + p[1].luck.unnormalised - -0.24235).abs() < 1e-5);
    // The newer names, and the Snowie rate without the stray parenthesis.
    let style = ReportStyle {
        ratings: RatingScale::Bmab,
        snowie_parenthesis: false,
    };
    let text = report_with(&stats, &style);
    assert!(text.contains(
        "Chequerplay rating                       Beginner                Grandmaster            \n"
    ));
    let snowie = text
        .lines()
        .find(|l| l.starts_with("Snowie error rate"))
        .unwrap();
    assert_eq!(snowie.len(), 40 + 1 + 23 + 1 + 23, "{snowie:?}");
    assert_eq!(
        snowie.split_whitespace().collect::<Vec<_>>(),
        ["Snowie", "error", "rate", "-22.3", "-2.3"]
    );
}

/// The end of the captured 4-game money session's overall statistics, verbatim.
const CAPTURED_MONEY: &[&str] = &[
    "Error total EMG (Points)                      -1.786 ( -3.523)        -0.000 ( -0.000)  ",
    "Error rate mEMG (Points)                     -41.5   ( -0.082)        -0.0   ( -0.000)  ",
    "Snowie error rate                            -19.2   ( +0.000)        -0.0   ( +0.000)  ",
    "Overall rating                           Awful!                  Supernatural           ",
    "Actual result                             -9.000                  +9.000                ",
    "Luck adjusted result                      -5.014                  +5.014                ",
    "Advantage (actual) in ppg                -2.250                  +2.250                 ",
    "95% confidence interval (ppg)            [-12.869,-5.131]        [ 5.131,12.869]        ",
    "Advantage (luck adjusted) in ppg         -1.254                  +1.254                 ",
    "95% confidence interval (ppg)            [-6.904,-3.125]         [ 3.125, 6.904]        ",
];

#[test]
fn the_captured_money_session_is_reproduced_with_its_interval_quirk() {
    // Four games of player 0 (player 1 has the opposite): −9 points in all, −5.0142 luck
    // adjusted; the interval is centred on the total, not on the ppg.
    let actual = [1.0f32, -1.0, -1.0, -8.0];
    let adjusted = [0.8585f32, -3.3656, -0.1975, -2.3096];
    let mut total = Statistics::new(0);
    let mut games = Vec::new();
    for g in 0..4 {
        let mut s = Statistics::new(0);
        s.games = 1;
        for (side, sign) in [(0, 1.0f32), (1, -1.0)] {
            let p = &mut s.players[side];
            p.total_moves = if side == 0 { 12 } else { 11 };
            p.unforced_moves = 9;
            p.actual_result = sign * actual[g];
            p.luck_adjusted_result = sign * adjusted[g];
        }
        // Player 0's errors, all in the first game: 36 unforced moves and 7 close decisions
        // over the session.
        if g == 0 {
            let p = &mut s.players[0];
            p.checker_cost = Amount::new(1.686, 3.323);
            p.close_cube_decisions = 7;
            p.cube_errors[CubeError::WrongTake.index()].count = 1;
            p.cube_errors[CubeError::WrongTake.index()].cost = Amount::new(0.1, 0.2);
        }
        total.add(&s);
        games.push(GameStatistics {
            number: g + 1,
            score: [0, 0],
            crawford: false,
            result: None,
            statistics: s,
        });
    }
    assert_eq!(total.players[0].unforced_moves, 36);
    assert_eq!(
        total.players[0].total_moves + total.players[1].total_moves,
        92
    );
    // One more move for the Snowie rate (1.786 / 93).
    total.players[1].total_moves += 1;
    let stats = MatchStatistics {
        players: ["gnubg".into(), "root".into()],
        match_length: 0,
        games,
        total,
        marked: Vec::new(),
        thresholds: Thresholds::default(),
    };
    let ours = report(&stats);
    let lines: Vec<&str> = ours.lines().collect();
    let start = lines
        .iter()
        .rposition(|l| l.starts_with("Error total EMG (Points)"))
        .unwrap();
    assert_eq!(&lines[start..start + CAPTURED_MONEY.len()], CAPTURED_MONEY);
    assert!(ours.contains(
        "Wrong takes (EMG (Points))                 1 (-0.100 ( -0.200))    0                    \n"
    ));
    assert!(ours.ends_with(&format!("{}\n\n\n\n", CAPTURED_MONEY[9])));
}
