//! What the window publishes about the match, for its own labels and for the panes beside the
//! board: GObject properties (the status line, the subtitle, the last event, whether the
//! engine is busy) and a list model of everything that happened ([`MatchModel::log`], a
//! `gio::ListStore` of [`LogEntry`] for a `GtkListView` or `GtkColumnView`), in the way GNOME's
//! image viewer publishes the state of its image. Widgets bind to the properties and list
//! models and are told of changes by their notifications; nobody reaches into the window.
//!
//! A property is set, and notified, only when its value changes, and the log list only grows
//! by what is new (a new match replaces it), so bound widgets redraw no more than needed.
//! GLib objects without widgets: tested without a display.

use std::cell::{Cell, OnceCell, RefCell};

use gtk::gio;
use gtk::glib;
use gtk::prelude::*;
use gtk::subclass::prelude::*;

/// The values published after each change of the match.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Published {
    /// One sentence saying who has to do what.
    pub status: String,
    /// "Match to 5 points · Ann 2 – 1 Cubeful · Expert".
    pub subtitle: String,
    /// What happened last.
    pub last_event: String,
    /// The bot is thinking or a move is being shown.
    pub busy: bool,
    /// The bot is thinking.
    pub thinking: bool,
    /// A match is being played.
    pub has_match: bool,
    /// Everything that happened, oldest first.
    pub log: Vec<String>,
}

mod entry_imp {
    use super::*;

    #[derive(Debug, Default, glib::Properties)]
    #[properties(wrapper_type = super::LogEntry)]
    pub struct LogEntry {
        /// The position in the log, from 1.
        #[property(get, construct_only)]
        pub number: Cell<u32>,
        /// What happened.
        #[property(get, construct_only)]
        pub text: RefCell<String>,
    }

    #[glib::object_subclass]
    impl ObjectSubclass for LogEntry {
        const NAME: &'static str = "CubefulLogEntry";
        type Type = super::LogEntry;
    }

    #[glib::derived_properties]
    impl ObjectImpl for LogEntry {}
}

mod imp {
    use super::*;

    #[derive(Debug, Default, glib::Properties)]
    #[properties(wrapper_type = super::MatchModel)]
    pub struct MatchModel {
        #[property(get)]
        pub status: RefCell<String>,
        #[property(get)]
        pub subtitle: RefCell<String>,
        #[property(get)]
        pub last_event: RefCell<String>,
        #[property(get)]
        pub busy: Cell<bool>,
        #[property(get)]
        pub thinking: Cell<bool>,
        #[property(get)]
        pub has_match: Cell<bool>,
        /// Bumped whenever the record of the match changes (an action, an analysis, a load).
        #[property(get)]
        pub record_revision: Cell<u64>,
        /// The game of the selected action (from 0), -1 for the live position.
        #[property(get, minimum = -1, default = -1)]
        pub selected_game: Cell<i32>,
        /// The selected action within its game (from 0), -1 for the live position.
        #[property(get, minimum = -1, default = -1)]
        pub selected_entry: Cell<i32>,
        /// The name of the match's file for the title ("" when it has none).
        #[property(get, set = Self::set_file_title, explicit_notify)]
        pub file_title: RefCell<String>,
        pub log: OnceCell<gio::ListStore>,
    }

    impl MatchModel {
        fn set_file_title(&self, title: String) {
            if *self.file_title.borrow() != title {
                self.file_title.replace(title);
                self.obj().notify_file_title();
            }
        }
    }

    #[glib::object_subclass]
    impl ObjectSubclass for MatchModel {
        const NAME: &'static str = "CubefulMatchModel";
        type Type = super::MatchModel;

        fn new() -> Self {
            MatchModel {
                selected_game: Cell::new(-1),
                selected_entry: Cell::new(-1),
                ..Default::default()
            }
        }
    }

    #[glib::derived_properties]
    impl ObjectImpl for MatchModel {}
}

glib::wrapper! {
    /// One line of the match log.
    pub struct LogEntry(ObjectSubclass<entry_imp::LogEntry>);
}

impl LogEntry {
    /// Line `number` (from 1) saying `text`.
    pub fn new(number: u32, text: &str) -> LogEntry {
        glib::Object::builder()
            .property("number", number)
            .property("text", text)
            .build()
    }
}

glib::wrapper! {
    /// The published state of the match.
    pub struct MatchModel(ObjectSubclass<imp::MatchModel>);
}

impl Default for MatchModel {
    fn default() -> MatchModel {
        glib::Object::new()
    }
}

impl MatchModel {
    /// Nothing published yet.
    pub fn new() -> MatchModel {
        MatchModel::default()
    }

    /// The log of the match, one [`LogEntry`] per line.
    pub fn log(&self) -> gio::ListStore {
        self.imp()
            .log
            .get_or_init(gio::ListStore::new::<LogEntry>)
            .clone()
    }

    /// Publishes `p`: each property that changed is set and notified; the log gets the new
    /// lines (or is replaced when it is not a continuation, as for a new match).
    pub fn update(&self, p: &Published) {
        let imp = self.imp();
        let set_text = |cell: &RefCell<String>, value: &str, notify: &dyn Fn()| {
            if *cell.borrow() != value {
                cell.replace(value.to_string());
                notify();
            }
        };
        set_text(&imp.status, &p.status, &|| self.notify_status());
        set_text(&imp.subtitle, &p.subtitle, &|| self.notify_subtitle());
        set_text(&imp.last_event, &p.last_event, &|| self.notify_last_event());
        if imp.busy.replace(p.busy) != p.busy {
            self.notify_busy();
        }
        if imp.thinking.replace(p.thinking) != p.thinking {
            self.notify_thinking();
        }
        if imp.has_match.replace(p.has_match) != p.has_match {
            self.notify_has_match();
        }
        self.update_log(&p.log);
    }

    /// Says that the record of the match changed: bumps `record-revision` (and notifies it).
    pub fn bump_record_revision(&self) {
        let imp = self.imp();
        imp.record_revision
            .set(imp.record_revision.get().wrapping_add(1));
        self.notify_record_revision();
    }

    /// Sets `record-revision` (notified when it changes).
    pub fn set_record_revision(&self, revision: u64) {
        if self.imp().record_revision.replace(revision) != revision {
            self.notify_record_revision();
        }
    }

    /// Publishes the selected action: `Some((game, entry))`, or `None` for the live position.
    /// Each of `selected-game` and `selected-entry` is notified when it changes.
    pub fn set_selection(&self, selection: Option<(usize, usize)>) {
        let imp = self.imp();
        let (game, entry) = match selection {
            Some((g, e)) => (
                i32::try_from(g).unwrap_or(i32::MAX),
                i32::try_from(e).unwrap_or(i32::MAX),
            ),
            None => (-1, -1),
        };
        if imp.selected_game.replace(game) != game {
            self.notify_selected_game();
        }
        if imp.selected_entry.replace(entry) != entry {
            self.notify_selected_entry();
        }
    }

    /// The selected action, `None` for the live position.
    pub fn selection(&self) -> Option<(usize, usize)> {
        let game = usize::try_from(self.selected_game()).ok()?;
        let entry = usize::try_from(self.selected_entry()).ok()?;
        Some((game, entry))
    }

    fn update_log(&self, lines: &[String]) {
        let store = self.log();
        let shown = store.n_items() as usize;
        let continues = shown <= lines.len()
            && (0..shown).all(|i| {
                store
                    .item(i as u32)
                    .and_downcast::<LogEntry>()
                    .is_some_and(|e| e.text() == lines[i])
            });
        let (from, removed) = if continues { (shown, 0) } else { (0, shown) };
        if removed == 0 && from == lines.len() {
            return;
        }
        let added: Vec<LogEntry> = lines[from..]
            .iter()
            .enumerate()
            .map(|(i, text)| LogEntry::new((from + i + 1) as u32, text))
            .collect();
        store.splice(from as u32, removed as u32, &added);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::rc::Rc;

    fn texts(model: &MatchModel) -> Vec<(u32, String)> {
        let store = model.log();
        (0..store.n_items())
            .filter_map(|i| store.item(i).and_downcast::<LogEntry>())
            .map(|e| (e.number(), e.text()))
            .collect()
    }

    #[test]
    fn properties_are_notified_when_they_change() {
        let model = MatchModel::new();
        let notes = Rc::new(RefCell::new(Vec::<String>::new()));
        let n = notes.clone();
        model.connect_notify_local(None, move |_, spec| {
            n.borrow_mut().push(spec.name().to_string())
        });
        let mut p = Published {
            status: "Ann: roll".into(),
            subtitle: "Match to 5 points".into(),
            has_match: true,
            ..Published::default()
        };
        model.update(&p);
        assert_eq!(*notes.borrow(), ["status", "subtitle", "has-match"]);
        assert_eq!(model.status(), "Ann: roll");
        assert!(model.has_match() && !model.busy());
        notes.borrow_mut().clear();
        model.update(&p);
        assert!(
            notes.borrow().is_empty(),
            "nothing changed, nothing notified"
        );
        p.busy = true;
        p.thinking = true;
        p.last_event = "Ann plays 8/5 6/5.".into();
        model.update(&p);
        assert_eq!(*notes.borrow(), ["last-event", "busy", "thinking"]);
        assert_eq!(model.last_event(), "Ann plays 8/5 6/5.");
        assert!(model.thinking());
    }

    #[test]
    fn record_revision_selection_and_file_title_are_notified() {
        let model = MatchModel::new();
        assert_eq!((model.selected_game(), model.selected_entry()), (-1, -1));
        assert_eq!(model.selection(), None);
        let notes = Rc::new(RefCell::new(Vec::<String>::new()));
        let n = notes.clone();
        model.connect_notify_local(None, move |_, spec| {
            n.borrow_mut().push(spec.name().to_string())
        });
        model.bump_record_revision();
        model.set_selection(Some((2, 5)));
        model.set_selection(Some((2, 6)));
        model.set_selection(Some((2, 6)));
        model.set_file_title("match.sgf".to_string());
        model.set_file_title("match.sgf".to_string());
        model.set_selection(None);
        assert_eq!(
            *notes.borrow(),
            [
                "record-revision",
                "selected-game",
                "selected-entry",
                "selected-entry",
                "file-title",
                "selected-game",
                "selected-entry"
            ]
        );
        assert_eq!(model.record_revision(), 1);
        assert_eq!(model.file_title(), "match.sgf");
        assert_eq!(model.selection(), None);
    }

    #[test]
    fn the_log_grows_and_is_replaced_by_a_new_match() {
        let model = MatchModel::new();
        let store = model.log();
        let changes = Rc::new(RefCell::new(Vec::new()));
        let c = changes.clone();
        store.connect_items_changed(move |_, at, removed, added| {
            c.borrow_mut().push((at, removed, added))
        });
        let mut p = Published {
            log: vec!["Game 1 starts.".into(), "Ann rolls 3-1.".into()],
            ..Published::default()
        };
        model.update(&p);
        p.log.push("Ann plays 8/5 6/5.".into());
        model.update(&p);
        model.update(&p);
        assert_eq!(*changes.borrow(), [(0, 0, 2), (2, 0, 1)]);
        assert_eq!(
            texts(&model),
            [
                (1, "Game 1 starts.".to_string()),
                (2, "Ann rolls 3-1.".to_string()),
                (3, "Ann plays 8/5 6/5.".to_string())
            ]
        );
        // Another match: the list is replaced in one change.
        p.log = vec!["Game 1 starts.".into(), "Bot rolls 6-5.".into()];
        model.update(&p);
        assert_eq!(changes.borrow().last(), Some(&(0, 3, 2)));
        assert_eq!(texts(&model)[1], (2, "Bot rolls 6-5.".to_string()));
        // No match: empty.
        model.update(&Published::default());
        assert_eq!(model.log().n_items(), 0);
    }
}
