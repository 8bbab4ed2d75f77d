mod common;
use cubeful_engine::formats::{mat, text};
#[test]
fn scratch() {
    let name = std::env::var("F").unwrap();
    let p = common::shared_dir().join("corpus/mat").join(&name);
    let (record, _) = mat::import(&std::fs::read(&p).unwrap()).unwrap();
    std::fs::write("/tmp/rr/ours.txt", text::export_game(&record, 0).unwrap()).unwrap();
}
#[test]
fn ids() {
    for id in ["cAjmAAAAAAAE", "cAnmAAAAAAAE", "MIHtAAAAAAAE"] {
        println!("{id} {:?}", cubeful_engine::match_id::decode(id));
    }
}
