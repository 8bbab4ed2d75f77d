use std::path::{Path, PathBuf};

use cubeful_engine::game::{Action, Decision};
use cubeful_engine::{match_id, position_id};
use cubeful_testkit::ScratchDir;

use super::*;
use crate::session::{MatchSetup, Opponent, Session};

fn corpus(name: &str) -> PathBuf {
    cubeful_testkit::shared_path("corpus").join(name)
}

/// A seeded match between two people (so nobody waits for the bot).
fn session() -> Session {
    Session::new(MatchSetup {
        length: 5,
        opponent: Opponent::Human,
        names: ["Anna".into(), "Bert".into()],
        seed: Some(7),
        ..MatchSetup::default()
    })
    .unwrap()
}

/// Plays `n` actions: rolls, the first legal move, takes doubles; starts new games.
fn play(session: &mut Session, n: usize) {
    for _ in 0..n {
        let game = session.game();
        let result = match game.decision() {
            Decision::OpeningRoll => session.opening_roll(),
            Decision::NewGame => session.next_game(),
            Decision::Roll { player, .. } => session.act(player, Action::Roll),
            Decision::Move { player, .. } => {
                let mv = game.legal_moves()[0].mv;
                session.act(player, Action::Move(mv))
            }
            Decision::AnswerDouble { player, .. } => session.act(player, Action::Take),
            Decision::AnswerResignation { player, .. } => {
                session.act(player, Action::AcceptResignation)
            }
            Decision::MatchOver { .. } => return,
        };
        result.unwrap();
    }
}

fn ids(session: &Session) -> (String, String, usize) {
    let g = session.game();
    (
        position_id::encode(&g.position()),
        match_id::encode(&g.match_state()),
        action_count(g.record()),
    )
}

#[test]
fn an_untitled_match_is_modified_once_somebody_acts() {
    let mut s = session();
    let doc = Document::untitled();
    // The opening roll alone is not worth asking about.
    assert!(!has_actions(&record_to_save(&s)));
    assert!(!doc.is_modified(&record_to_save(&s)));
    play(&mut s, 1);
    assert!(has_actions(&record_to_save(&s)));
    assert!(doc.is_modified(&record_to_save(&s)));
    assert_eq!(doc.save_target(), None);
    let title = doc.title(Some(&s)).unwrap();
    assert!(title.starts_with("• "), "{title}");
    assert!(title.contains("Anna") && title.contains("Bert"), "{title}");
    assert_eq!(doc.title(None), None);
}

#[test]
fn saving_makes_the_document_belong_to_the_file() {
    let dir = ScratchDir::new("doc-save");
    let mut s = session();
    play(&mut s, 5);
    let mut doc = Document::untitled();
    let path = dir.join("m.sgf");
    let record = record_to_save(&s);
    write(&path, &record, Export::Match(MatchFormat::Sgf)).unwrap();
    doc.saved_as(path.clone(), MatchFormat::Sgf, record.clone());
    assert!(!doc.is_modified(&record_to_save(&s)));
    assert!(!doc.is_session_modified(&s));
    assert!(same_record(&record, &s));
    assert_eq!(doc.save_target(), Some(path.as_path()));
    assert_eq!(doc.title(Some(&s)).unwrap(), "m.sgf");
    assert_eq!(doc.suggested_name(&s, MatchFormat::Mat), "m.mat");
    // An export does not change which file the match is in.
    let mat = dir.join("m.mat");
    write(&mat, &record, Export::Match(MatchFormat::Mat)).unwrap();
    doc.saved_as(mat, MatchFormat::Mat, record.clone());
    assert_eq!(doc.path(), Some(path.as_path()));
    // Another action: changed again.
    play(&mut s, 1);
    assert!(doc.is_modified(&record_to_save(&s)));
    assert!(doc.is_session_modified(&s));
    assert!(!same_record(&record, &s));
    assert_eq!(doc.title(Some(&s)).unwrap(), "• m.sgf");
    // The file reads back as the same match, names included.
    let opened = read_match_file(&path).unwrap();
    assert_eq!(opened.format, MatchFormat::Sgf);
    assert_eq!(
        opened.record.info.players,
        ["Bert".to_string(), "Anna".into()]
    );
    assert_eq!(opened.record.games, record.games);
}

#[test]
fn a_failed_save_leaves_the_old_file_intact() {
    let dir = ScratchDir::new("doc-fail");
    let mut s = session();
    play(&mut s, 4);
    let path = dir.join("keep.html");
    fs::write(&path, "old contents").unwrap();
    // Nothing to report: an error, and the old file is as it was.
    let e = write(&path, &record_to_save(&s), Export::HtmlReport).unwrap_err();
    assert!(matches!(e, DocumentError::NotAnalysed), "{e:?}");
    assert!(!e.message().is_empty());
    assert_eq!(fs::read_to_string(&path).unwrap(), "old contents");
    // A folder that does not exist.
    let e = write(
        &dir.join("no/such/folder/m.sgf"),
        &record_to_save(&s),
        Export::Match(MatchFormat::Sgf),
    )
    .unwrap_err();
    assert!(matches!(e, DocumentError::Write(_)), "{e:?}");
    // A folder nobody may write to (root may write anywhere: then there is nothing to test).
    let locked = dir.join("locked");
    fs::create_dir(&locked).unwrap();
    let target = locked.join("m.sgf");
    fs::write(&target, "old match").unwrap();
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(&locked, fs::Permissions::from_mode(0o555)).unwrap();
    if fs::write(locked.join("probe"), "x").is_err() {
        let e = write(
            &target,
            &record_to_save(&s),
            Export::Match(MatchFormat::Sgf),
        )
        .unwrap_err();
        assert!(matches!(e, DocumentError::Write(_)), "{e:?}");
        assert_eq!(fs::read_to_string(&target).unwrap(), "old match");
    }
    fs::set_permissions(&locked, fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn exports_in_every_format() {
    let dir = ScratchDir::new("doc-export");
    let mut s = session();
    play(&mut s, 12);
    let record = record_to_save(&s);
    for format in [MatchFormat::Sgf, MatchFormat::Mat, MatchFormat::Text] {
        let path = dir.join(format!("m.{}", format.extension()));
        write(&path, &record, Export::Match(format)).unwrap();
        let text = fs::read_to_string(&path).unwrap();
        assert!(text.contains("Anna"), "{format}: {text}");
    }
    assert_eq!(
        with_extension(Path::new("/x/match"), Export::HtmlReport),
        Path::new("/x/match.html")
    );
    assert_eq!(
        with_extension(Path::new("/x/m.txt"), Export::Match(MatchFormat::Sgf)),
        Path::new("/x/m.txt")
    );
}

#[test]
fn the_html_report_of_an_analysed_file() {
    let path = corpus("sgf/gnubg-scripts_test-match01_analyzed.sgf");
    let opened = read_match_file(&path).unwrap();
    assert!(has_analysis(&opened.record));
    let html = render(&opened.record, Export::HtmlReport).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"), "{}", &html[..80]);
    assert!(html.contains("LMDN"));
}

#[test]
fn opening_a_file_seats_the_person_at_the_bottom() {
    let path = corpus("sgf/gnubg-scripts_test-match01_analyzed.sgf");
    let opened = read_match_file(&path).unwrap();
    let (s, doc) = open_session(&opened, &path, Level::Beginner, Some(3)).unwrap();
    let [zero, one] = &opened.record.info.players;
    assert_eq!(s.name(Player::One), one);
    assert_eq!(s.name(Player::Zero), zero);
    assert_eq!(s.bot_level(), Some(Level::Beginner));
    assert!(s.is_bot(Player::Zero) && !s.is_bot(Player::One));
    // Just opened: nothing to save, the title is the file's name.
    assert!(!doc.is_modified(&record_to_save(&s)));
    assert_eq!(doc.save_target(), Some(path.as_path()));
    assert_eq!(
        doc.title(Some(&s)).unwrap(),
        "gnubg-scripts_test-match01_analyzed.sgf"
    );
    assert_eq!(s.game().record().games.len(), opened.record.games.len());
    // Analysis is kept.
    assert!(has_analysis(&record_to_save(&s)));
}

#[test]
fn every_corpus_file_opens_or_says_why() {
    for folder in ["sgf", "mat/gnubg"] {
        let Ok(entries) = fs::read_dir(corpus(folder)) else {
            panic!("the corpus {folder} is missing");
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if !matches!(
                path.extension().and_then(|e| e.to_str()),
                Some("sgf" | "mat")
            ) {
                continue;
            }
            match read_match_file(&path) {
                Ok(opened) => {
                    open_session(&opened, &path, Level::Expert, Some(1))
                        .unwrap_or_else(|e| panic!("{}: {}", path.display(), e.message()));
                }
                Err(e) => assert!(!e.message().is_empty()),
            }
        }
    }
}

#[test]
fn unreadable_files_are_one_sentence_not_a_panic() {
    let dir = ScratchDir::new("doc-bad");
    let missing = read_match_file(&dir.join("missing.sgf")).unwrap_err();
    assert!(matches!(missing, DocumentError::Read(_)));
    assert!(
        missing.message().contains("missing.sgf"),
        "{}",
        missing.message()
    );
    let garbage = dir.join("garbage.sgf");
    fs::write(&garbage, "(;FF[4]GM[6]B[zz").unwrap();
    let e = read_match_file(&garbage).unwrap_err();
    assert!(matches!(e, DocumentError::Format { .. }), "{e:?}");
    assert!(e.message().contains("garbage.sgf"));
    let folder = read_match_file(&dir).unwrap_err();
    assert!(matches!(folder, DocumentError::Read(_)));
}

#[test]
fn the_autosave_resumes_exactly() {
    let dir = ScratchDir::new("doc-autosave");
    let autosave = Autosave::new(dir.join("data"));
    assert!(autosave.load().unwrap().is_none());
    let mut s = Session::new(MatchSetup {
        length: 7,
        opponent: Opponent::Bot(Level::Advanced),
        names: ["Anna".into(), "Cubeful".into()],
        seed: Some(11),
        ..MatchSetup::default()
    })
    .unwrap();
    // Play with the bot's seat moved by hand (the first legal move for both).
    for _ in 0..9 {
        let game = s.game();
        let r = match game.decision() {
            Decision::Roll { player, .. } => s.act(player, Action::Roll),
            Decision::Move { player, .. } => {
                let mv = game.legal_moves()[0].mv;
                s.act(player, Action::Move(mv))
            }
            Decision::OpeningRoll => s.opening_roll(),
            other => panic!("{other:?}"),
        };
        r.unwrap();
    }
    let doc = Document::in_file(
        dir.join("elsewhere.sgf"),
        MatchFormat::Sgf,
        MatchRecord::default(),
    );
    autosave
        .save(&record_to_save(&s), &Seats::of(&s, &doc))
        .unwrap();
    let resumable = autosave.load().unwrap().expect("an autosave");
    let summary = resumable.summary();
    assert!(
        summary.contains("Anna") && summary.contains("7"),
        "{summary}"
    );
    let (back, back_doc) = resumable
        .session(&autosave.match_path(), Level::Beginner, Some(1))
        .unwrap();
    assert_eq!(ids(&back), ids(&s));
    assert_eq!(back.game().decision(), s.game().decision());
    assert_eq!(back.game().dice(), s.game().dice());
    assert_eq!(back.setup().names, s.setup().names);
    // The saved level, not the fallback.
    assert_eq!(back.bot_level(), Some(Level::Advanced));
    assert_eq!(back_doc.path(), Some(dir.join("elsewhere.sgf").as_path()));
    assert!(back_doc.is_modified(&record_to_save(&back)));
    assert_eq!(record_to_save(&back).games, record_to_save(&s).games);
    // Without its seats file the match still resumes, with the defaults.
    fs::remove_file(autosave.seats_path()).unwrap();
    let resumable = autosave.load().unwrap().unwrap();
    assert!(resumable.seats.is_none());
    let (back, _) = resumable
        .session(&autosave.match_path(), Level::Beginner, None)
        .unwrap();
    assert_eq!(ids(&back), ids(&s));
    assert_eq!(back.bot_level(), Some(Level::Beginner));
    // Removing it twice is fine.
    autosave.remove().unwrap();
    autosave.remove().unwrap();
    assert!(autosave.load().unwrap().is_none());
}

#[test]
fn a_corrupt_autosave_is_reported_and_set_aside() {
    let dir = ScratchDir::new("doc-corrupt");
    let autosave = Autosave::new(dir.to_path_buf());
    fs::write(autosave.match_path(), "(;FF[4]GM[6]CA[UTF-8]B[63x").unwrap();
    let e = autosave.load().unwrap_err();
    assert!(!e.message().is_empty());
    let aside = autosave.set_aside().unwrap();
    assert!(aside.exists());
    assert!(autosave.load().unwrap().is_none());
    // Not a file at all.
    fs::create_dir(autosave.match_path()).unwrap();
    assert!(autosave.load().is_err());
    // A data folder that cannot be made: saving is an error, not a panic.
    let blocked = Autosave::new(dir.join("a-file"));
    fs::write(dir.join("a-file"), "x").unwrap();
    let e = blocked
        .save(&record_to_save(&session()), &Seats::default())
        .unwrap_err();
    assert!(matches!(e, DocumentError::Folder { .. }), "{e:?}");
}

#[test]
fn the_data_folder_can_be_overridden() {
    assert_eq!(
        Autosave::dir_from(Some("/tmp/cubeful-data-test".into())),
        Some(PathBuf::from("/tmp/cubeful-data-test"))
    );
    let default = Autosave::dir_from(None);
    assert_eq!(Autosave::dir_from(Some("".into())), default);
    if let Some(dir) = default {
        assert!(dir.ends_with("cubeful"), "{}", dir.display());
    }
}

#[test]
fn recent_files_most_recent_first_at_most_ten() {
    let dir = ScratchDir::new("doc-recent");
    let paths: Vec<PathBuf> = (0..12)
        .map(|i| {
            let p = dir.join(format!("m{i}.sgf"));
            fs::write(&p, "x").unwrap();
            fs::canonicalize(p).unwrap()
        })
        .collect();
    let mut list = Vec::new();
    for p in &paths {
        remember_recent(&mut list, p);
    }
    assert_eq!(list.len(), MAX_RECENT);
    assert_eq!(list[0], paths[11]);
    assert_eq!(list[9], paths[2]);
    // Opening one again moves it to the front, once.
    remember_recent(&mut list, &paths[5]);
    assert_eq!(list[0], paths[5]);
    assert_eq!(list.iter().filter(|p| **p == paths[5]).count(), 1);
    assert_eq!(list.len(), MAX_RECENT);
    // Missing files are dropped.
    fs::remove_file(&paths[11]).unwrap();
    let shown = existing_recent(&list);
    assert_eq!(shown.len(), MAX_RECENT - 1);
    assert!(!shown.contains(&paths[11]));
    assert_eq!(shown[0], paths[5]);
}
