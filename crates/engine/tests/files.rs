//! The engine's writers never follow a planted symbolic link nor replace a special file, never
//! create missing folders, and its readers of data files (nets, bearoff databases, PubEval weights,
//! match equity tables) refuse anything but a regular file of a bounded size, at once (issue #15,
//! parts 1 and 4).

#![cfg(unix)]

use std::os::unix::fs::{symlink, FileTypeExt};
use std::path::Path;
use std::sync::mpsc;
use std::time::Duration;

use cubeful_engine::cube::met::MatchEquityTable;
use cubeful_engine::eval::bearoff::{Layout, OneSided};
use cubeful_engine::eval::nn::NetClass;
use cubeful_engine::eval::pubeval::PubEval;
use cubeful_engine::eval::Nets;
use cubeful_testkit::ScratchDir;

fn mkfifo(path: &Path) {
    let status = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(status.success(), "mkfifo {}", path.display());
}

fn is_fifo(path: &Path) -> bool {
    std::fs::symlink_metadata(path)
        .map(|m| m.file_type().is_fifo())
        .unwrap_or(false)
}

/// Runs `f` on another thread and returns its result, failing the test (instead of hanging it)
/// when it takes longer than ten seconds.
fn quickly<T: Send + 'static>(what: &str, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = send.send(f());
    });
    receive
        .recv_timeout(Duration::from_secs(10))
        .unwrap_or_else(|_| panic!("{what} did not finish within ten seconds"))
}

fn small_one_sided() -> OneSided {
    OneSided::generate(Layout::new(2, 2).unwrap(), &mut |_, _| {})
}

#[test]
fn a_bearoff_save_never_follows_a_planted_temporary_link() {
    let dir = ScratchDir::new("engine-files-bearoff-link");
    let victim = dir.join("victim");
    std::fs::write(&victim, b"precious").unwrap();
    // The names the writer used to choose: `.NAME.PID.N.tmp`.
    for n in 0..4 {
        symlink(
            &victim,
            dir.join(format!(".x.cbd.{}.{n}.tmp", std::process::id())),
        )
        .unwrap();
    }
    let target = dir.join("x.cbd");
    let db = small_one_sided();
    db.save(&target).unwrap();
    assert!(
        std::fs::read(&victim).unwrap() == b"precious",
        "the file behind the planted link was overwritten"
    );
    let meta = std::fs::symlink_metadata(&target).unwrap();
    assert!(meta.is_file(), "the target is a regular file");
    assert_eq!(OneSided::load(&target).unwrap().to_bytes(), db.to_bytes());
}

#[test]
fn a_net_save_never_follows_a_planted_temporary_link() {
    let dir = ScratchDir::new("engine-files-net-link");
    let victim = dir.join("victim");
    std::fs::write(&victim, b"precious").unwrap();
    // The name the writer used to choose: `contact.net.tmp`.
    symlink(&victim, dir.join("contact.net.tmp")).unwrap();
    let nets = Nets::embedded();
    let net = nets.net(NetClass::Contact);
    let target = dir.join("contact.net");
    net.save(&target).unwrap();
    assert!(
        std::fs::read(&victim).unwrap() == b"precious",
        "the file behind the planted link was overwritten"
    );
    assert!(std::fs::symlink_metadata(&target).unwrap().is_file());
}

#[test]
fn saves_refuse_a_fifo_and_a_missing_folder() {
    let dir = ScratchDir::new("engine-files-fifo-target");
    let fifo = dir.join("x.cbd");
    mkfifo(&fifo);
    let db = small_one_sided();
    let err = quickly("saving onto a FIFO", move || {
        db.save(&fifo).map_err(|e| e.to_string())
    })
    .unwrap_err();
    assert!(err.contains("not a regular file"), "{err}");
    assert!(is_fifo(&dir.join("x.cbd")), "the FIFO is still a FIFO");

    let net_fifo = dir.join("contact.net");
    mkfifo(&net_fifo);
    let err = Nets::embedded()
        .net(NetClass::Contact)
        .save(&net_fifo)
        .unwrap_err()
        .to_string();
    assert!(err.contains("not a regular file"), "{err}");
    assert!(is_fifo(&net_fifo));

    let missing = dir.join("no/such/folder/x.cbd");
    let err = small_one_sided().save(&missing).unwrap_err().to_string();
    assert!(err.contains("does not exist"), "{err}");
    assert!(!dir.join("no").exists(), "no folder is created");
}

#[test]
fn nets_from_a_fifo_are_refused_at_once() {
    let dir = ScratchDir::new("engine-files-nets-fifo");
    mkfifo(&dir.join("contact.net"));
    let path = dir.to_path_buf();
    let err = quickly("loading nets with a FIFO", move || {
        Nets::load_dir(&path).map(|_| ()).map_err(|e| e.to_string())
    })
    .unwrap_err();
    assert!(
        err.contains("contact.net") && err.contains("not a regular file"),
        "{err}"
    );
    // A link to /dev/zero is tried by the command-line tests, under a memory limit.
}

#[test]
fn a_huge_net_file_is_refused_before_it_is_read() {
    let dir = ScratchDir::new("engine-files-nets-huge");
    let file = std::fs::File::create(dir.join("contact.net")).unwrap();
    // A sparse file: longer than any net, but it takes no room.
    file.set_len(64 << 20).unwrap();
    let err = Nets::load_dir(&dir).map(|_| ()).unwrap_err().to_string();
    assert!(err.contains("larger than"), "{err}");
}

#[test]
fn other_data_files_from_a_fifo_are_refused_at_once() {
    let dir = ScratchDir::new("engine-files-data-fifo");
    for name in ["x.cbd", "WT.cntc", "table.xml", "table.met"] {
        mkfifo(&dir.join(name));
    }
    let path = dir.join("x.cbd");
    let err = quickly("loading a bearoff database from a FIFO", move || {
        OneSided::load(&path).map(|_| ()).map_err(|e| e.to_string())
    })
    .unwrap_err();
    assert!(err.contains("not a regular file"), "{err}");

    let path = dir.to_path_buf();
    let err = quickly("loading PubEval weights from a FIFO", move || {
        PubEval::load(&path).map(|_| ()).map_err(|e| e.to_string())
    })
    .unwrap_err();
    assert!(
        err.contains("WT.cntc") && err.contains("not a regular file"),
        "{err}"
    );

    let path = dir.join("table.xml");
    let err = quickly("loading an XML table from a FIFO", move || {
        MatchEquityTable::load_gnubg_xml(&path)
            .map(|_| ())
            .map_err(|e| e.to_string())
    })
    .unwrap_err();
    assert!(err.contains("not a regular file"), "{err}");

    let path = dir.join("table.met");
    let err = quickly("loading a text table from a FIFO", move || {
        MatchEquityTable::load_met_text(&path)
            .map(|_| ())
            .map_err(|e| e.to_string())
    })
    .unwrap_err();
    assert!(err.contains("not a regular file"), "{err}");
}
