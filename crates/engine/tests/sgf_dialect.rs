//! GNU Backgammon's SGF dialect feature by feature: cube actions and beavers, resignations,
//! set-ups, comments, luck marks, rollouts and old analysis forms, rules, errors with their
//! place, warnings for what is ignored, and the exact text the writer produces.

use cubeful_engine::formats::sgf::{self, SgfReadError, SgfWarningKind};
use cubeful_engine::game::record::analysis::{
    ActionAnalysis, Candidate, CandidateEval, CubeAnalysis, EvalContext, EvalSource, Luck,
    MoveAnalysis, RolloutStats, Skill,
};
use cubeful_engine::game::record::{
    Entry, GameRecord, GameResult, MatchInfo, MatchRecord, RecordAction, Setup, Variant,
};
use cubeful_engine::game::Rules;
use cubeful_engine::rules::movegen::play_steps;
use cubeful_engine::{legal_moves, CubeOwner, Dice, Move, Player, Position, Resignation, Step};

const HEAD: &str = "(;FF[4]GM[6]CA[UTF-8]AP[GNU Backgammon:1.07.001]";

fn read_ok(text: &str) -> MatchRecord {
    let (record, warnings) = sgf::read(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert!(warnings.is_empty(), "{warnings:?}");
    record
}

fn actions(game: &GameRecord) -> Vec<RecordAction> {
    game.entries.iter().map(|e| e.action.clone()).collect()
}

fn dice(text: &str) -> Dice {
    text.parse().unwrap()
}

fn steps(pairs: &[(u8, u8)]) -> Move {
    let steps: Vec<Step> = pairs.iter().map(|&(from, to)| Step { from, to }).collect();
    Move::from_steps(&steps)
}

/// `read(write(r))` gives `r` back (but for the program name) and writing it again gives the
/// same text.
fn assert_round_trip(record: &MatchRecord) -> String {
    let written = sgf::write(record);
    let (again, warnings) = sgf::read(&written).unwrap_or_else(|e| panic!("{e}\n{written}"));
    assert!(warnings.is_empty(), "{warnings:?}\n{written}");
    let mut expected = record.clone();
    expected.info.application = Some(sgf::APPLICATION.to_owned());
    assert_eq!(again, expected, "{written}");
    assert_eq!(sgf::write(&again), written);
    written
}

#[test]
fn cube_actions_and_beavers_in_money_play() {
    let text = format!(
        "{HEAD}MI[length:0][game:0][ws:0][bs:0]PW[white]PB[black]RU[Jacoby]RE[W+8]
;W[31hefe]
;B[double]
;W[double]
;B[double]
;W[take]
;B[52lqln]
;W[double]
;B[drop])
"
    );
    let record = read_ok(&text);
    let info = &record.info;
    assert_eq!(info.rules, Rules::money());
    assert!(info.rules.jacoby && info.rules.beavers);
    let game = &record.games[0];
    assert_eq!(
        actions(game),
        [
            RecordAction::Move {
                player: Player::Zero,
                dice: dice("31"),
                mv: steps(&[(8, 5), (6, 5)])
            },
            RecordAction::Double {
                player: Player::One
            },
            RecordAction::Beaver {
                player: Player::Zero
            },
            RecordAction::Beaver {
                player: Player::One
            },
            RecordAction::Take {
                player: Player::Zero
            },
            RecordAction::Move {
                player: Player::One,
                dice: dice("52"),
                mv: steps(&[(13, 8), (13, 11)])
            },
            RecordAction::Double {
                player: Player::Zero
            },
            RecordAction::Drop {
                player: Player::One
            },
        ]
    );
    assert_eq!(
        game.result,
        Some(GameResult {
            winner: Player::Zero,
            points: 8,
            resigned: false
        })
    );
    // The record replays: the cube is 8 on White's side when Black drops White's redouble.
    let replay = record.replay().unwrap();
    let end = replay.games()[0].end().state;
    assert_eq!(end.score, [8, 0]);
    // Beavers are written as GNU Backgammon writes them: a double by the doubled player.
    let written = assert_round_trip(&record);
    assert!(
        written.contains("\n;B[double]\n;W[double]\n;B[double]\n;W[take]\n"),
        "{written}"
    );
}

#[test]
fn a_resigned_game_gets_its_resignation_back() {
    // The loser rolls, then resigns; the cube is 2 after a double and take.
    let cube = "\n;B[double]\n;W[take]";
    let black_rolls = "\n;PL[B]DI[64]";
    let white_rolls = "\n;B[41lpab]\n;PL[W]DI[64]";
    for (result, cube_nodes, roll, resignation) in [
        ("W+1R", "", black_rolls, Resignation::Single),
        ("B+2R", "", white_rolls, Resignation::Gammon),
        ("B+6R", cube, white_rolls, Resignation::Backgammon),
        ("B+4R", cube, white_rolls, Resignation::Gammon),
        ("B+8R", cube, white_rolls, Resignation::Backgammon),
        ("W+2R", cube, black_rolls, Resignation::Single),
    ] {
        let text = format!(
            "{HEAD}MI[length:9][game:0][ws:0][bs:0]PW[a]PB[b]RE[{result}]\n;W[31hefe]{cube_nodes}{roll})\n"
        );
        let record = read_ok(&text);
        let game = &record.games[0];
        let winner = game.result.unwrap().winner;
        let n = game.entries.len();
        assert_eq!(
            actions(game)[n - 3..],
            [
                RecordAction::Roll {
                    player: winner.other(),
                    dice: dice("64")
                },
                RecordAction::Resign {
                    player: winner.other(),
                    resignation
                },
                RecordAction::AcceptResignation { player: winner },
            ],
            "{result}"
        );
        // 8 points at a 2-cube is more than a backgammon: clamped, it no longer adds up.
        match record.replay() {
            Ok(_) => assert_ne!(result, "B+8R"),
            Err(e) => assert_eq!(result, "B+8R", "{e}"),
        }
        // Written back as the result only.
        let written = assert_round_trip(&record);
        assert!(written.contains(&format!("RE[{result}]")), "{written}");
        assert!(written.ends_with(&format!("{roll})\n")), "{written}");
    }
}

fn sample_setup() -> Setup {
    // White (on roll) has 2 on his 1-point, 3 on the 6-point and 1 on the bar; Black 2 on his
    // 1-point and 4 on his 5-point.
    let mut white = [0u8; 25];
    white[0] = 2;
    white[5] = 3;
    white[24] = 1;
    let mut black = [0u8; 25];
    black[0] = 2;
    black[4] = 4;
    Setup {
        position: Position::from_sides(&white, &black).unwrap(),
        on_roll: Player::Zero,
        cube_log2: 2,
        cube_owner: CubeOwner::Owned(Player::One),
        dice: Some(dice("53")),
    }
}

#[test]
fn set_up_positions_are_written_and_read_like_gnubg_save_position() {
    let setup = sample_setup();
    let mut info = MatchInfo::new(["white".into(), "black".into()], Rules::match_to(5));
    info.application = Some("x".into());
    let mut entry = Entry::new(RecordAction::SetUp(setup));
    entry.comment = Some("a set-up".into());
    let record = MatchRecord {
        info,
        games: vec![GameRecord {
            score: [2, 1],
            entries: vec![
                entry,
                Entry::new(RecordAction::Move {
                    player: Player::Zero,
                    dice: dice("53"),
                    mv: steps(&[(25, 22), (6, 1)]),
                }),
            ],
            ..GameRecord::default()
        }],
    };
    record.replay().unwrap();
    let written = assert_round_trip(&record);
    assert!(
        written.contains(
            "\n;PL[W]AE[a:y]AW[a][a][f][f][f][y]AB[x][x][t][t][t][t]C[a set-up]\n;CV[4]\n;CP[b]\n;PL[W]DI[53]\n;W[53yvfa])"
        ),
        "{written}"
    );

    // GNU Backgammon's own forms: ranges, all in one node, AE not clearing everything.
    let text = format!(
        "{HEAD}MI[length:5][game:0][ws:2][bs:1]PW[white]PB[black]
;PL[B]AE[a:y]AB[x][x][t][t][t][t]AW[a][a][f][f][f][y]CV[4]CP[b]DI[64])"
    );
    let record = read_ok(&text);
    let RecordAction::SetUp(read) = &record.games[0].entries[0].action else {
        panic!("{record:?}")
    };
    assert_eq!(read.on_roll, Player::One);
    assert_eq!(read.position.side(cubeful_engine::Side::Player)[0], 2);
    assert_eq!(read.position.side(cubeful_engine::Side::Player)[4], 4);
    assert_eq!(read.position.side(cubeful_engine::Side::Opponent)[24], 1);
    assert_eq!(
        (read.cube_log2, read.cube_owner),
        (2, CubeOwner::Owned(Player::One))
    );
    assert_eq!(read.dice, Some(dice("64")));

    // Editing a few points of the board reached: White's 8-point and Black's 24-point emptied, a
    // Black checker put on White's 8-point (Black's 17-point).
    let text = format!(
        "{HEAD}MI[length:5][game:0][ws:0][bs:0]PW[white]PB[black]\n;W[31hefe]\n;AE[h][a]AB[h]\n;CV[2]\n;B[double])"
    );
    let record = read_ok(&text);
    let game = &record.games[0];
    let RecordAction::SetUp(edited) = &game.entries[1].action else {
        panic!("{game:?}")
    };
    assert_eq!(
        edited.on_roll,
        Player::One,
        "the player on roll after the move"
    );
    let black = edited.position.side(cubeful_engine::Side::Player);
    let white = edited.position.side(cubeful_engine::Side::Opponent);
    assert_eq!((white[7], white[4], white[5]), (0, 2, 4));
    assert_eq!((black[23], black[16]), (0, 1));
    assert_eq!(black.iter().map(|&c| u32::from(c)).sum::<u32>(), 14);
    assert_eq!(
        edited.cube_log2, 1,
        "CV in the next node belongs to the set-up"
    );
    assert_eq!(game.entries.len(), 3);
}

#[test]
fn setup_errors_and_cube_set_ups_without_board() {
    let text = format!("{HEAD}MI[length:5][game:0][ws:0][bs:0]\n;AE[a:y]AW[a:x]\n;W[31hefe])");
    match sgf::read(&text) {
        Err(SgfReadError::BadSetup {
            game: 1,
            node: 1,
            reason,
        }) => {
            assert!(reason.contains("White has 24 checkers"), "{reason}")
        }
        other => panic!("{other:?}"),
    }
    let text = format!("{HEAD}MI[length:5][game:0][ws:0][bs:0]\n;AE[a:y]AW[a]AB[a]\n;W[31hefe])");
    assert!(matches!(
        sgf::read(&text),
        Err(SgfReadError::BadSetup { node: 1, .. })
    ));
    // A cube value set in the middle of a game becomes a set-up of the position reached.
    let text =
        format!("{HEAD}MI[length:5][game:0][ws:0][bs:0]\n;W[31hefe]\n;CV[2]CP[w]\n;B[41lpab])");
    let record = read_ok(&text);
    let RecordAction::SetUp(setup) = &record.games[0].entries[1].action else {
        panic!()
    };
    let mut expected = Position::starting();
    expected = play_steps(&expected, steps(&[(8, 5), (6, 5)]).steps())
        .unwrap()
        .swap();
    assert_eq!(setup.position, expected);
    assert_eq!(
        (setup.on_roll, setup.cube_log2, setup.cube_owner),
        (Player::One, 1, CubeOwner::Owned(Player::Zero))
    );
    assert_round_trip(&record);
}

#[test]
fn comments_and_text_values() {
    let text = format!(
        "{HEAD}MI[length:3][game:0][ws:0][bs:0]PW[Wh\\]ite\\\\]PB[Bl\tack]DT[2024-1-5]EV[an\tevent]C[game\rcomment]GC[match comment]
;W[31hefe]C[line one\r\nline two with \\] and \\\\]
;B[double]C[doubling]
;W[take]C[taking])"
    );
    let record = read_ok(&text);
    let info = &record.info;
    assert_eq!(
        info.players,
        ["Wh]ite\\", "Bl\tack"],
        "names are kept as written"
    );
    assert_eq!(info.date.as_deref(), Some("2024-01-05"));
    assert_eq!(info.event.as_deref(), Some("an event"));
    assert_eq!(info.comment.as_deref(), Some("match comment"));
    let game = &record.games[0];
    assert_eq!(game.comment.as_deref(), Some("game comment"));
    let comments: Vec<Option<&str>> = game.entries.iter().map(|e| e.comment.as_deref()).collect();
    assert_eq!(
        comments,
        [
            Some("line one \nline two with ] and \\"),
            Some("doubling"),
            Some("taking")
        ]
    );
    let written = assert_round_trip(&record);
    assert!(written.contains("PW[Wh\\]ite\\\\]"), "{written}");
    assert!(
        written.contains("C[line one \nline two with \\] and \\\\]"),
        "{written}"
    );
}

#[test]
fn luck_and_skill_marks_follow_gnubgs_rules() {
    // GB/GW say who the roll was good for; the record says how lucky it was for the roller.
    let text = format!(
        "{HEAD}MI[length:3][game:0][ws:0][bs:0]
;W[31hefe]LU[0.12345]GW[1]BM[1]BC[2]
;B[41lpab]LU[-0.2]GW[2]DO[]DC[]
;W[64xrxt]GB[1]BM[2]
;B[21lnln]LU[-inf]GB[2]
;PL[W]DI[55]LU[0.5]GW[2])"
    );
    let record = read_ok(&text);
    let analysis: Vec<ActionAnalysis> = record.games[0]
        .entries
        .iter()
        .map(|e| *e.analysis.clone().unwrap())
        .collect();
    let marks: Vec<(Luck, Skill, Skill)> = analysis
        .iter()
        .map(|a| (a.luck_mark, a.skill, a.cube_skill))
        .collect();
    assert_eq!(
        marks,
        [
            (Luck::Lucky, Skill::Bad, Skill::VeryBad),
            (Luck::VeryUnlucky, Skill::Doubtful, Skill::Doubtful),
            (Luck::Unlucky, Skill::VeryBad, Skill::None),
            (Luck::VeryLucky, Skill::None, Skill::None),
            (Luck::VeryLucky, Skill::None, Skill::None),
        ]
    );
    assert_eq!(analysis[0].luck, Some(0.12345));
    assert_eq!(analysis[3].luck, Some(f64::NEG_INFINITY));
    let written = assert_round_trip(&record);
    assert!(written.contains("LU[-0.20000]GW[2]DO[]DC[]"), "{written}");
    assert!(written.contains(";B[21lnln]LU[-inf]GB[2]"), "{written}");
}

fn context(plies: u8) -> EvalContext {
    EvalContext {
        plies,
        cubeful: true,
        deterministic: true,
        noise: 0.0,
        prune: true,
    }
}

#[test]
fn rollouts_and_evaluations_round_trip() {
    let settings = "SK 0 RC 1 1 0 1 0 0 0 0 0 0 \"Mersenne Twister\" 1234  cube0 ver 3 0C 0 0.000000 0  cheq0 ver 3 0C 0 0.000000 0";
    let rollout = |std: f64| RolloutStats {
        trials: 1296,
        std_dev: [std; 7],
        move_means: [0.0; 3],
        settings: settings.to_owned(),
    };
    let cube = CubeAnalysis {
        no_double: [0.7, 0.2, 0.01, 0.05, 0.001, 0.5123456789, 0.6],
        double_take: [0.7, 0.2, 0.01, 0.05, 0.001, 1.0, 1.2],
        source: EvalSource::Rollout(rollout(0.001)),
        double_take_rollout: Some(rollout(0.002)),
    };
    let mut move_rollout = rollout(0.003);
    move_rollout.move_means = [0.25, 0.3, 0.2];
    let moves = MoveAnalysis {
        played: 1,
        candidates: vec![
            Candidate {
                mv: steps(&[(8, 5), (6, 5)]),
                eval: Some(CandidateEval {
                    probabilities: [0.55, 0.15, 0.01, 0.12, 0.005],
                    equity: 0.123456789,
                    source: EvalSource::Rollout(move_rollout),
                }),
            },
            Candidate {
                mv: steps(&[(24, 21), (21, 20)]),
                eval: Some(CandidateEval {
                    probabilities: [0.5, 0.14, 0.006, 0.13, 0.005],
                    equity: -0.004723,
                    source: EvalSource::Eval(context(2)),
                }),
            },
            Candidate {
                mv: steps(&[(13, 10), (13, 12)]),
                eval: None,
            },
        ],
        rollout_marks: vec![1, 3],
    };
    let analysis = ActionAnalysis {
        cube: Some(cube),
        cube_rollout_mark: true,
        moves: Some(moves),
        luck: Some(0.01234),
        luck_mark: Luck::None,
        skill: Skill::Bad,
        cube_skill: Skill::Doubtful,
    };
    let mut entry = Entry::new(RecordAction::Move {
        player: Player::Zero,
        dice: dice("31"),
        mv: steps(&[(24, 21), (21, 20)]),
    });
    entry.analysis = Some(Box::new(analysis));
    let record = MatchRecord {
        info: MatchInfo::new(["a".into(), "b".into()], Rules::match_to(7)),
        games: vec![GameRecord {
            entries: vec![entry],
            ..GameRecord::default()
        }],
    };
    let written = assert_round_trip(&record);
    let expected = format!(
        ";W[31xuut]DA[X ver 3 Eq Trials 1296 NoDouble Output 0.7 0.2 0.01 0.05 0.001 0.5123456789 0.6 \
         StdDev 0.001 0.001 0.001 0.001 0.001 0.001 0.001 DoubleTake Output 0.7 0.2 0.01 0.05 0.001 1 1.2 \
         StdDev 0.002 0.002 0.002 0.002 0.002 0.002 0.002 {settings}]CR[]\
         A[1][hefe X ver 3 Score 0.123456789 0.2 Trials 1296 Output 0.55 0.15 0.01 0.12 0.005 0.25 0.3 \
         StdDev 0.003 0.003 0.003 0.003 0.003 0.003 0.003 {settings}]\
         [xuut E ver 3 0.500000 0.140000 0.006000 0.130000 0.005000 -0.004723 2C 0 1 0.000000 1][mjml ]\
         MR[1 3 ]LU[0.01234]BM[1]DC[])"
    );
    assert!(written.contains(&expected), "{written}\n{expected}");
    // Rollout figures are written with ten significant digits.
    let mut precise = record.clone();
    let entry = &mut precise.games[0].entries[0];
    entry
        .analysis
        .as_mut()
        .unwrap()
        .cube
        .as_mut()
        .unwrap()
        .no_double[5] = 0.51234567891;
    assert_eq!(sgf::write(&precise), written);
}

#[test]
fn old_analysis_forms_are_read() {
    // Version 0 (no `ver`): the cube eval has four leading unused numbers and a reduced field,
    // the candidate eval no pruning flag; a later value without `ver` keeps the last version.
    let text = format!(
        "{HEAD}MI[length:3][game:0][ws:0][bs:0]
;W[31hefe]DA[E 0 0 0 0 1C 0 1 0.5 0.5 0.1 0.0 0.1 0.0 0.0 0.5 0.5 0.1 0.0 0.1 0.0 0.0 0.4]\
A[0][hefe E 0.5 0.1 0.0 0.1 0.0 0.02 1C 0 0 0.0][xuvu E 0.49 0.1 0.0 0.1 0.0 -0.01 1C 0 0 0.0]
;B[41lpab]DA[E ver 2 2C 0 1 0.000000 1 0.5 0.1 0.0 0.1 0.0 0.0 0.5 0.5 0.1 0.0 0.1 0.0 0.0 0.4]\
A[0][lpab E 0.5 0.1 0.0 0.1 0.0 0.02 2C 0 1 0.0 1])"
    );
    let record = read_ok(&text);
    let first = record.games[0].entries[0].analysis.as_ref().unwrap();
    let EvalSource::Eval(c) = first.cube.as_ref().unwrap().source else {
        panic!()
    };
    assert_eq!(
        (c.plies, c.cubeful, c.deterministic, c.noise, c.prune),
        (1, true, true, 0.5, false)
    );
    assert_eq!(first.cube.as_ref().unwrap().double_take[6], 0.4);
    assert_eq!(first.moves.as_ref().unwrap().candidates.len(), 2);
    let second = record.games[0].entries[1].analysis.as_ref().unwrap();
    let EvalSource::Eval(c) = &second.moves.as_ref().unwrap().candidates[0]
        .eval
        .as_ref()
        .unwrap()
        .source
    else {
        panic!()
    };
    assert!(c.prune, "version 2 inherited: the pruning flag is read");
    // Written as version 3, and stable from there.
    let written = sgf::write(&record);
    assert!(
        written.contains("DA[E ver 3 1C 1 0.500000 0 0.500000"),
        "{written}"
    );
    let again = read_ok(&written);
    assert_eq!(sgf::write(&again), written);
}

#[test]
fn rules_variants_and_automatic_doubles() {
    let text =
        format!("{HEAD}MI[length:0][game:0][ws:0][bs:0]RU[NoCube:Nackgammon]CV[4]\n;W[31xwxu])");
    let record = read_ok(&text);
    assert!(!record.info.cube_used);
    assert_eq!(record.info.variant, Variant::Nackgammon);
    assert!(!record.info.rules.jacoby);
    assert_eq!(record.games[0].auto_doubles, 2);
    assert_round_trip(&record);

    // Crawford in a match; Jacoby has no meaning there.
    let text = format!("{HEAD}MI[length:5][game:0][ws:4][bs:2]RU[Crawford:CrawfordGame:Jacoby])");
    let record = read_ok(&text);
    assert_eq!(record.info.rules, Rules::match_to(5));
    assert!(record.games[0].crawford);
    let written = assert_round_trip(&record);
    assert!(written.contains("RU[Crawford:CrawfordGame]"), "{written}");
    // No RU: no Crawford rule.
    let record = read_ok(&format!("{HEAD}MI[length:5][game:0][ws:0][bs:0])"));
    assert!(!record.info.rules.crawford);
}

#[test]
fn errors_say_what_and_where() {
    type Check = Box<dyn Fn(&SgfReadError) -> bool>;
    let cases: Vec<(String, Check)> = vec![
        (
            format!("{HEAD}MI[length:1])\n(;FF[4]GM[1]SZ[19];B[dd])"),
            Box::new(
                |e| matches!(e, SgfReadError::NotBackgammon { game: 2, found } if found == "GM[1]"),
            ),
        ),
        (
            "(;FF[4]PW[x])".to_owned(),
            Box::new(|e| matches!(e, SgfReadError::NotBackgammon { game: 1, .. })),
        ),
        (
            format!("{HEAD}\n;W[31hefe]\n;B[71lpab])"),
            Box::new(|e| {
                matches!(
                    e,
                    SgfReadError::BadDice {
                        game: 1,
                        node: 2,
                        ..
                    }
                )
            }),
        ),
        (
            format!("{HEAD}\n;W[3])"),
            Box::new(|e| matches!(e, SgfReadError::BadDice { node: 1, .. })),
        ),
        (
            format!("{HEAD}\n;W[31hefe]\n;B[41lpa])"),
            Box::new(|e| {
                matches!(
                    e,
                    SgfReadError::BadMove {
                        game: 1,
                        node: 2,
                        ..
                    }
                )
            }),
        ),
        (
            format!("{HEAD}\n;W[31zefe])"),
            Box::new(|e| matches!(e, SgfReadError::BadMove { .. })),
        ),
        (
            format!("{HEAD}\n;PL[W]DI[07])"),
            Box::new(|e| matches!(e, SgfReadError::BadDice { node: 1, .. })),
        ),
        (
            format!("{HEAD}MI[length:65])"),
            Box::new(|e| matches!(e, SgfReadError::BadMatchLength { length: 65, .. })),
        ),
        (
            format!("{HEAD}\n;W[31hefe]\n;B[41"),
            Box::new(|e| matches!(e, SgfReadError::Syntax(s) if s.line == 3 && s.column == 3)),
        ),
        ("".to_owned(), Box::new(|e| *e == SgfReadError::NoGames)),
    ];
    for (text, check) in cases {
        let error = sgf::read(&text).expect_err(&text);
        assert!(check(&error), "{text}: {error:?}");
        assert!(!error.to_string().is_empty());
    }
    let error = sgf::read(&format!("{HEAD}\n;W[31hefe]\n;B[41lpa])")).unwrap_err();
    assert_eq!(
        error.to_string(),
        "game 1, node 2: bad move \"41lpa\": 3 letters: a move is written as from/to pairs"
    );
}

#[test]
fn what_is_ignored_is_reported() {
    let text = format!(
        "{HEAD}MI[length:3][game:0][ws:0][bs:0][wtime:100]XY[1]
;W[31hefe]WL[300]XY[2]ZZ[3]
;B[double]A[0][hefe ]LU[0.1]
;W[take]CR[]
;B[41lpab]W[31hefe]
;C[nothing here]
;W[64xrxt]MI[length:5]
(;B[11stst])
(;B[22susu]))"
    );
    let (record, warnings) = sgf::read(&text).unwrap();
    let kinds: Vec<(usize, Option<usize>, &SgfWarningKind)> =
        warnings.iter().map(|w| (w.game, w.node, &w.kind)).collect();
    let has = |node: Option<usize>, f: &dyn Fn(&SgfWarningKind) -> bool| {
        kinds.iter().any(|(g, n, k)| *g == 1 && *n == node && f(k))
    };
    assert!(has(None, &|k| *k
        == SgfWarningKind::VariationsIgnored { count: 1 }));
    assert!(has(Some(0), &|k| *k
        == SgfWarningKind::UnknownProperty {
            ident: "XY".into(),
            count: 2
        }));
    assert!(has(Some(1), &|k| *k
        == SgfWarningKind::UnknownProperty {
            ident: "ZZ".into(),
            count: 1
        }));
    assert!(has(
        Some(2),
        &|k| matches!(k, SgfWarningKind::IgnoredProperty { ident, .. } if ident == "A")
    ));
    assert!(has(
        Some(2),
        &|k| matches!(k, SgfWarningKind::IgnoredProperty { ident, .. } if ident == "LU")
    ));
    assert!(has(
        Some(3),
        &|k| matches!(k, SgfWarningKind::IgnoredProperty { ident, .. } if ident == "CR")
    ));
    assert!(has(Some(4), &|k| matches!(
        k,
        SgfWarningKind::SecondAction { .. }
    )));
    assert!(has(Some(5), &|k| *k == SgfWarningKind::CommentIgnored));
    assert!(has(
        Some(6),
        &|k| matches!(k, SgfWarningKind::IgnoredProperty { ident, .. } if ident == "MI")
    ));
    assert_eq!(warnings.len(), 9, "{warnings:#?}");
    let messages: Vec<String> = warnings.iter().map(ToString::to_string).collect();
    assert!(
        messages.contains(
            &"game 1, node 0: unknown property XY ignored (2 times in the file)".to_owned()
        ),
        "{messages:#?}"
    );
    // The main line is the first variation; WL is silently ignored.
    let game = &record.games[0];
    assert_eq!(game.entries.len(), 6);
    assert!(matches!(
        game.entries[5].action,
        RecordAction::Move { dice, .. } if dice == self::dice("11")
    ));

    // A move that cannot be played is kept, with a warning.
    let (record, warnings) =
        sgf::read(&format!("{HEAD}MI[length:3]\n;W[31aefe]\n;B[41lpab])")).unwrap();
    assert_eq!(record.games[0].entries.len(), 2);
    assert!(
        matches!(&warnings[..], [w] if matches!(w.kind, SgfWarningKind::UnplayableMove { .. }) && w.node == Some(1)),
        "{warnings:?}"
    );

    // Players that change between games.
    let (_, warnings) = sgf::read(&format!(
        "{HEAD}MI[length:3][game:0]PW[a]PB[b])\n{HEAD}MI[length:3][game:1]PW[a]PB[c])"
    ))
    .unwrap();
    assert!(
        matches!(&warnings[..], [w] if w.game == 2 && matches!(w.kind, SgfWarningKind::InconsistentMatch { .. })),
        "{warnings:?}"
    );
}

#[test]
fn long_property_names_are_read() {
    // SGF FF[3] allowed lower-case letters in identifiers; only the capitals count.
    let record = read_ok(
        "(;FileFormat[4]GaMe[6]MatchInfo[length:3][game:0]PlayerWhite[a]PlayerBlack[b]\n;White[31hefe]Comment[ok])",
    );
    assert_eq!(record.info.players, ["a", "b"]);
    assert_eq!(record.info.rules.match_length, 3);
    assert_eq!(record.games[0].entries[0].comment.as_deref(), Some("ok"));
}

#[test]
fn bytes_in_a_single_byte_charset_are_decoded() {
    let mut bytes = b"(;FF[4]GM[6]CA[ISO-8859-1]MI[length:3]PW[K".to_vec();
    bytes.push(0xE9);
    bytes.extend_from_slice(b"vin]PB[b])");
    let (record, _) = sgf::read_bytes(&bytes).unwrap();
    assert_eq!(record.info.players[0], "Kévin");
}

/// The whole text for a small match with every kind of action, as GNU Backgammon lays it out.
#[test]
fn written_text_is_gnubgs_layout() {
    let mut info = MatchInfo::new(["Alice".into(), "Bob".into()], Rules::money());
    info.date = Some("2025-03-04".into());
    info.event = Some("Club night".into());
    let mut first = Entry::new(RecordAction::Move {
        player: Player::One,
        dice: dice("41"),
        mv: steps(&[(13, 9), (24, 23)]),
    });
    first.comment = Some("opening".into());
    let record = MatchRecord {
        info,
        games: vec![
            GameRecord {
                entries: vec![
                    first,
                    Entry::new(RecordAction::Double {
                        player: Player::Zero,
                    }),
                    Entry::new(RecordAction::Beaver {
                        player: Player::One,
                    }),
                    Entry::new(RecordAction::Take {
                        player: Player::Zero,
                    }),
                    Entry::new(RecordAction::Move {
                        player: Player::Zero,
                        dice: dice("66"),
                        mv: Move::NONE,
                    }),
                    Entry::new(RecordAction::Roll {
                        player: Player::One,
                        dice: dice("21"),
                    }),
                    Entry::new(RecordAction::Resign {
                        player: Player::Zero,
                        resignation: Resignation::Gammon,
                    }),
                    Entry::new(RecordAction::AcceptResignation {
                        player: Player::One,
                    }),
                ],
                result: Some(GameResult {
                    winner: Player::One,
                    points: 8,
                    resigned: true,
                }),
                ..GameRecord::default()
            },
            GameRecord {
                score: [0, 8],
                auto_doubles: 1,
                entries: vec![Entry::new(RecordAction::SetUp(sample_setup()))],
                ..GameRecord::default()
            },
        ],
    };
    let written = sgf::write(&record);
    let ap = sgf::APPLICATION;
    let expected = format!(
        "(;FF[4]GM[6]CA[UTF-8]AP[{ap}]MI[length:0][game:0][ws:0][bs:0]PW[Alice]PB[Bob]DT[2025-03-04]EV[Club night]RU[Jacoby]RE[B+8R]
;B[41lpab]C[opening]
;W[double]
;B[double]
;W[take]
;W[66]
;PL[B]DI[21])
(;FF[4]GM[6]CA[UTF-8]AP[{ap}]MI[length:0][game:1][ws:0][bs:8]PW[Alice]PB[Bob]RU[Jacoby]CV[2]
;PL[W]AE[a:y]AW[a][a][f][f][f][y]AB[x][x][t][t][t][t]
;CV[4]
;CP[b]
;PL[W]DI[53])
"
    );
    assert_eq!(written, expected);
    let again = read_ok(&written);
    // The resignation (8 points at a 4-cube: a gammon) comes back.
    assert_eq!(
        actions(&again.games[0])[6..],
        actions(&record.games[0])[6..]
    );
    assert_eq!(sgf::write(&again), written);
    assert!(sgf::write(&MatchRecord::default()).is_empty());
}

/// The moves of a record the writer wrote are legal plays when replayed on the board.
#[test]
fn moves_of_a_money_session_replay() {
    let record = read_ok(&format!(
        "{HEAD}MI[length:0][game:0][ws:0][bs:0]RU[Jacoby]\n;W[31hefe]\n;B[66agaglrlr]\n;W[52xvmh])"
    ));
    let mut position = Position::starting();
    for entry in &record.games[0].entries {
        let RecordAction::Move { dice, mv, .. } = entry.action else {
            continue;
        };
        let after = play_steps(&position, mv.steps()).unwrap();
        assert!(legal_moves(&position, dice)
            .iter()
            .any(|l| l.position == after));
        position = after.swap();
    }
}
