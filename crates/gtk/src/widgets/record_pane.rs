//! The record pane beside the board: a game selector, the game's actions in two columns (one
//! per player, numbered rows, GNU Backgammon's notation and marks) and a legend of the marks.
//! A click on an action selects it (the board shows that position); the button beside the
//! selector returns to the game in progress.
//!
//! What it lists comes from the GTK-free [`RecordView`] (review.rs); the rows are
//! [`RecordRow`] objects in a `gio::ListStore` shown by a `GtkColumnView`. Each update
//! replaces only the rows that changed, so the list keeps its scroll position while a game is
//! played. Marks are coloured by CSS classes (style.css: `mark-*`, `luck-*`, readable in the
//! light and the dark style) and written as symbols (`?!`, `?`, `??`, `+`, `−`) as well.

use std::cell::{Cell, RefCell};

use adw::subclass::prelude::*;
use gtk::prelude::*;
use gtk::{gio, glib};

use crate::review::{luck_class, skill_class, RecordView, Selection};

type SelectHandler = Box<dyn Fn(Selection)>;

/// The data key of a bound cell's [`Following`].
const FOLLOWING: &str = "cubeful-record-following";

/// The row a bound cell shows and its handler following the row's CSS classes.
struct Following(RecordRow, glib::SignalHandlerId);

/// A cell of the record on screen (for tests, which click them).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct VisibleCell {
    /// The action it shows: (game, entry).
    pub action: (usize, usize),
    /// Its centre in the coordinates of the widget asked for.
    pub centre: (f64, f64),
    /// It is drawn as the selected action.
    pub selected: bool,
}

/// Disconnects the handler a cell's list item follows its row with, if any.
fn stop_following(item: &gtk::ListItem) {
    // SAFETY: the key only ever holds a `Following` (set in the cell factory's bind).
    if let Some(Following(row, handler)) = unsafe { item.steal_data::<Following>(FOLLOWING) } {
        row.disconnect(handler);
    }
}

/// Gives `label` the space-separated CSS `classes`.
fn set_classes(label: &gtk::Label, classes: &str) {
    let classes: Vec<&str> = classes.split_whitespace().collect();
    label.set_css_classes(&classes);
}

mod row_imp {
    use super::*;

    #[derive(Debug, Default, glib::Properties)]
    #[properties(wrapper_type = super::RecordRow)]
    pub struct RecordRow {
        /// The row number shown (from 1).
        #[property(get, construct_only)]
        pub number: Cell<u32>,
        /// The game (from 0).
        #[property(get, construct_only)]
        pub game: Cell<u32>,
        /// The action of player 0 and its CSS classes (which change in place when the
        /// selection moves), and its entry (-1: none).
        #[property(get, construct_only)]
        pub text0: RefCell<String>,
        #[property(get, set)]
        pub classes0: RefCell<String>,
        #[property(get, construct_only, minimum = -1, default = -1)]
        pub entry0: Cell<i32>,
        /// The action of player 1, its CSS classes and its entry (-1: none).
        #[property(get, construct_only)]
        pub text1: RefCell<String>,
        #[property(get, set)]
        pub classes1: RefCell<String>,
        #[property(get, construct_only, minimum = -1, default = -1)]
        pub entry1: Cell<i32>,
    }

    #[glib::object_subclass]
    impl ObjectSubclass for RecordRow {
        const NAME: &'static str = "CubefulRecordRow";
        type Type = super::RecordRow;
    }

    #[glib::derived_properties]
    impl ObjectImpl for RecordRow {}
}

glib::wrapper! {
    /// One numbered row of the record pane.
    pub struct RecordRow(ObjectSubclass<row_imp::RecordRow>);
}

/// The contents of one row, to compare and build [`RecordRow`]s.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RowData {
    pub number: u32,
    pub game: u32,
    /// Per column (player 0, player 1): text, CSS classes, entry (-1: none).
    pub cells: [(String, String, i32); 2],
}

impl RecordRow {
    /// A row showing `data`.
    pub fn new(data: &RowData) -> RecordRow {
        let [(t0, c0, e0), (t1, c1, e1)] = &data.cells;
        glib::Object::builder()
            .property("number", data.number)
            .property("game", data.game)
            .property("text0", t0)
            .property("classes0", c0)
            .property("entry0", *e0)
            .property("text1", t1)
            .property("classes1", c1)
            .property("entry1", *e1)
            .build()
    }

    /// What the row shows.
    pub fn data(&self) -> RowData {
        RowData {
            number: self.number(),
            game: self.game(),
            cells: [
                (self.text0(), self.classes0(), self.entry0()),
                (self.text1(), self.classes1(), self.entry1()),
            ],
        }
    }

    /// Whether `data` is this row with other CSS classes at most (then [`RecordRow::restyle`]
    /// makes it `data`, and the cells showing it keep their widgets).
    fn same_but_classes(&self, data: &RowData) -> bool {
        let mine = self.data();
        mine.number == data.number
            && mine.game == data.game
            && (0..2)
                .all(|c| mine.cells[c].0 == data.cells[c].0 && mine.cells[c].2 == data.cells[c].2)
    }

    /// Gives the row the CSS classes of `data`.
    fn restyle(&self, data: &RowData) {
        if self.classes0() != data.cells[0].1 {
            self.set_classes0(data.cells[0].1.as_str());
        }
        if self.classes1() != data.cells[1].1 {
            self.set_classes1(data.cells[1].1.as_str());
        }
    }

    /// The CSS classes of column `column` (0 or 1).
    fn classes(&self, column: usize) -> String {
        if column == 0 {
            self.classes0()
        } else {
            self.classes1()
        }
    }

    /// The entry in column `column` (0 or 1), if any.
    pub fn entry(&self, column: usize) -> Option<usize> {
        let e = if column == 0 {
            self.entry0()
        } else {
            self.entry1()
        };
        usize::try_from(e).ok()
    }
}

/// The rows of game `game` of `view`, with `selection` highlighted.
pub fn row_data(view: &RecordView, game: usize, selection: Selection) -> Vec<RowData> {
    let Some(g) = view.games().get(game) else {
        return Vec::new();
    };
    g.rows
        .iter()
        .map(|row| {
            let cell = |column: usize| -> (String, String, i32) {
                let Some(e) = row.entries[column] else {
                    return (String::new(), "record-cell".to_string(), -1);
                };
                let c = &g.cells[e];
                let mut classes = vec!["record-cell"];
                for class in [luck_class(c.luck), skill_class(c.skill)] {
                    if !class.is_empty() {
                        classes.push(class);
                    }
                }
                if selection == Some((game, e)) {
                    classes.push("record-selected");
                }
                (
                    c.text.clone(),
                    classes.join(" "),
                    i32::try_from(e).unwrap_or(-1),
                )
            };
            RowData {
                number: u32::try_from(row.number).unwrap_or(u32::MAX),
                game: u32::try_from(game).unwrap_or(u32::MAX),
                cells: [cell(0), cell(1)],
            }
        })
        .collect()
}

mod imp {
    use super::*;

    #[derive(Default, gtk::CompositeTemplate)]
    #[template(file = "record_pane.ui")]
    pub struct RecordPane {
        #[template_child]
        pub game_selector: TemplateChild<gtk::DropDown>,
        #[template_child]
        pub live_button: TemplateChild<gtk::Button>,
        #[template_child]
        pub scroller: TemplateChild<gtk::ScrolledWindow>,
        #[template_child]
        pub view: TemplateChild<gtk::ColumnView>,
        pub rows: RefCell<Option<gio::ListStore>>,
        pub columns: RefCell<Vec<gtk::ColumnViewColumn>>,
        /// The game labels in the selector.
        pub labels: RefCell<Vec<String>>,
        /// The game shown.
        pub game: Cell<Option<usize>>,
        pub selection: Cell<Selection>,
        /// Set while the pane changes its own selector (its notification is not the user's).
        pub updating: Cell<bool>,
        pub on_selected: RefCell<Vec<SelectHandler>>,
    }

    impl std::fmt::Debug for RecordPane {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.debug_struct("RecordPane")
                .field("game", &self.game.get())
                .field("selection", &self.selection.get())
                .finish()
        }
    }

    #[glib::object_subclass]
    impl ObjectSubclass for RecordPane {
        const NAME: &'static str = "CubefulRecordPane";
        type Type = super::RecordPane;
        type ParentType = gtk::Box;

        fn class_init(klass: &mut Self::Class) {
            klass.bind_template();
        }

        fn instance_init(obj: &glib::subclass::InitializingObject<Self>) {
            obj.init_template();
        }
    }

    impl ObjectImpl for RecordPane {
        fn constructed(&self) {
            self.parent_constructed();
            self.obj().set_up();
        }
    }
    impl WidgetImpl for RecordPane {}
    impl BoxImpl for RecordPane {}
}

glib::wrapper! {
    /// The record pane.
    pub struct RecordPane(ObjectSubclass<imp::RecordPane>)
        @extends gtk::Box, gtk::Widget,
        @implements gtk::Buildable, gtk::ConstraintTarget, gtk::Orientable;
}

impl Default for RecordPane {
    fn default() -> RecordPane {
        RecordPane::new()
    }
}

impl RecordPane {
    /// An empty pane.
    pub fn new() -> RecordPane {
        glib::Object::new()
    }

    /// Calls `f` when the user selects an action (a click, a game picked in the selector).
    pub fn connect_selected<F: Fn(Selection) + 'static>(&self, f: F) {
        self.imp().on_selected.borrow_mut().push(Box::new(f));
    }

    fn emit_selected(&self, selection: Selection) {
        for f in self.imp().on_selected.borrow().iter() {
            f(selection);
        }
    }

    /// The rows shown (for tests).
    pub fn rows(&self) -> gio::ListStore {
        self.imp()
            .rows
            .borrow()
            .clone()
            .expect("the rows are made in constructed")
    }

    /// The game shown (from 0).
    pub fn shown_game(&self) -> Option<usize> {
        self.imp().game.get()
    }

    fn set_up(&self) {
        let imp = self.imp();
        let store = gio::ListStore::new::<RecordRow>();
        imp.view
            .set_model(Some(&gtk::NoSelection::new(Some(store.clone()))));
        imp.rows.replace(Some(store));
        let number = gtk::ColumnViewColumn::new(Some("#"), Some(Self::number_factory()));
        imp.view.append_column(&number);
        let mut columns = vec![number];
        for column in 0..2 {
            let c = gtk::ColumnViewColumn::new(None, Some(self.cell_factory(column)));
            c.set_expand(true);
            imp.view.append_column(&c);
            columns.push(c);
        }
        imp.columns.replace(columns);
        imp.game_selector.connect_selected_notify(glib::clone!(
            #[weak(rename_to = pane)]
            self,
            move |dd| {
                if pane.imp().updating.get() {
                    return;
                }
                let game = dd.selected() as usize;
                if pane.imp().game.get() != Some(game) {
                    pane.emit_selected(Some((game, 0)));
                }
            }
        ));
    }

    /// The row number, dimmed.
    fn number_factory() -> gtk::SignalListItemFactory {
        let factory = gtk::SignalListItemFactory::new();
        factory.connect_setup(|_, item| {
            if let Some(item) = item.downcast_ref::<gtk::ListItem>() {
                let label = gtk::Label::builder().xalign(1.0).build();
                label.add_css_class("dim-label");
                label.add_css_class("numeric");
                item.set_child(Some(&label));
            }
        });
        factory.connect_bind(|_, item| {
            let Some(item) = item.downcast_ref::<gtk::ListItem>() else {
                return;
            };
            if let (Some(row), Some(label)) = (
                item.item().and_downcast::<RecordRow>(),
                item.child().and_downcast::<gtk::Label>(),
            ) {
                label.set_text(&row.number().to_string());
            }
        });
        factory
    }

    /// A label per cell; a click on it selects its action.
    fn cell_factory(&self, column: usize) -> gtk::SignalListItemFactory {
        let factory = gtk::SignalListItemFactory::new();
        factory.connect_setup(glib::clone!(
            #[weak(rename_to = pane)]
            self,
            move |_, item| {
                let Some(item) = item.downcast_ref::<gtk::ListItem>() else {
                    return;
                };
                // Not wrapped: the pane is as wide as the longest action, so that every
                // action reads on one line as in GNU Backgammon.
                let label = gtk::Label::builder().xalign(0.0).build();
                let click = gtk::GestureClick::new();
                click.connect_pressed(glib::clone!(
                    #[weak]
                    pane,
                    #[weak]
                    item,
                    move |_, _, _, _| {
                        let Some(row) = item.item().and_downcast::<RecordRow>() else {
                            return;
                        };
                        if let Some(entry) = row.entry(column) {
                            pane.emit_selected(Some((row.game() as usize, entry)));
                        }
                    }
                ));
                label.add_controller(click);
                item.set_child(Some(&label));
            }
        ));
        factory.connect_bind(move |_, item| {
            let Some(item) = item.downcast_ref::<gtk::ListItem>() else {
                return;
            };
            let (Some(row), Some(label)) = (
                item.item().and_downcast::<RecordRow>(),
                item.child().and_downcast::<gtk::Label>(),
            ) else {
                return;
            };
            let text = if column == 0 {
                row.text0()
            } else {
                row.text1()
            };
            label.set_text(&text);
            // Named after its action, so that tests find it ("cell-GAME-ENTRY").
            match row.entry(column) {
                Some(entry) => label.set_widget_name(&format!("cell-{}-{entry}", row.game())),
                None => label.set_widget_name("cell"),
            }
            set_classes(&label, &row.classes(column));
            // The classes change in place (the selection moving): follow them while bound.
            let property = if column == 0 { "classes0" } else { "classes1" };
            let handler = row.connect_notify_local(
                Some(property),
                glib::clone!(
                    #[weak]
                    label,
                    move |row, _| set_classes(&label, &row.classes(column))
                ),
            );
            stop_following(item);
            // SAFETY: this key only ever holds a `Following`, read back as one below.
            unsafe { item.set_data(FOLLOWING, Following(row, handler)) };
        });
        factory.connect_unbind(|_, item| {
            if let Some(item) = item.downcast_ref::<gtk::ListItem>() {
                stop_following(item);
            }
        });
        factory
    }

    /// The cells shown on screen, in record order.
    pub fn visible_cells(&self, target: &impl IsA<gtk::Widget>) -> Vec<VisibleCell> {
        let mut cells = Vec::new();
        let mut stack = vec![self.imp().view.get().upcast::<gtk::Widget>()];
        while let Some(widget) = stack.pop() {
            let mut child = widget.first_child();
            while let Some(c) = child {
                stack.push(c.clone());
                child = c.next_sibling();
            }
            let name = widget.widget_name();
            let Some(rest) = name.strip_prefix("cell-") else {
                continue;
            };
            let Some((g, e)) = rest.split_once('-') else {
                continue;
            };
            let (Ok(g), Ok(e)) = (g.parse::<usize>(), e.parse::<usize>()) else {
                continue;
            };
            if !widget.is_mapped() || widget.width() == 0 {
                continue;
            }
            let centre = gtk::graphene::Point::new(
                widget.width() as f32 / 2.0,
                widget.height() as f32 / 2.0,
            );
            // Only cells inside the scrolled area (rows kept beyond it are not on screen).
            let scroller = self.imp().scroller.get();
            let inside = widget.compute_point(&scroller, &centre).is_some_and(|p| {
                p.y() >= 0.0
                    && p.y() <= scroller.height() as f32
                    && p.x() >= 0.0
                    && p.x() <= scroller.width() as f32
            });
            if !inside {
                continue;
            }
            if let Some(p) = widget.compute_point(target, &centre) {
                cells.push(VisibleCell {
                    action: (g, e),
                    centre: (f64::from(p.x()), f64::from(p.y())),
                    selected: widget.has_css_class("record-selected"),
                });
            }
        }
        cells.sort_by_key(|c| c.action);
        cells
    }

    /// Shows `view` at `selection` (`None`: the live position, the last game). `names`: of
    /// player 0 and player 1, for the column titles.
    pub fn show(&self, view: &RecordView, selection: Selection, names: [&str; 2]) {
        let imp = self.imp();
        imp.updating.set(true);
        let columns = imp.columns.borrow();
        for (column, name) in columns.iter().skip(1).zip(names) {
            if column.title().as_deref() != Some(name) {
                column.set_title(Some(name));
            }
        }
        drop(columns);
        let labels: Vec<String> = view.games().iter().map(|g| g.label.clone()).collect();
        if *imp.labels.borrow() != labels {
            let refs: Vec<&str> = labels.iter().map(String::as_str).collect();
            imp.game_selector
                .set_model(Some(&gtk::StringList::new(&refs)));
            imp.labels.replace(labels);
        }
        let game = match selection {
            Some((g, _)) => Some(g),
            None => view.games().len().checked_sub(1),
        };
        if let Some(g) = game {
            imp.game_selector.set_selected(g as u32);
        }
        imp.game_selector.set_sensitive(view.games().len() > 1);
        imp.live_button.set_visible(selection.is_some());
        let data = game
            .map(|g| row_data(view, g, selection))
            .unwrap_or_default();
        let before = self.rows().n_items() as usize;
        let changed = self.replace_rows(&data);
        // Rows changed in place (an analysis arrived) keep the list where it is; a selection
        // that moved, another game or new rows bring the selection into view.
        let resized = changed && before != data.len();
        let moved = imp.selection.replace(selection) != selection || imp.game.get() != game;
        imp.game.set(game);
        imp.updating.set(false);
        if moved || resized {
            let target = match selection {
                Some((g, e)) => view.games()[g].row_of(e),
                None => data.len().checked_sub(1),
            };
            if let Some(row) = target {
                self.scroll_to(row as u32);
            }
        }
    }

    /// Makes the rows what `data` says, changing as little as possible: a row whose CSS
    /// classes alone differ (the selection moved) is restyled in place, its cells keep their
    /// widgets; the rows that differ otherwise (an analysis arrived) are replaced each in its
    /// own place, so the list view rebinds only their cells. True if any row was replaced,
    /// added or removed.
    fn replace_rows(&self, data: &[RowData]) -> bool {
        let store = self.rows();
        let shown = store.n_items() as usize;
        let mut changed = false;
        let mut i = 0;
        while i < shown.min(data.len()) {
            let differs = |i: usize| {
                let row = store.item(i as u32).and_downcast::<RecordRow>();
                match row {
                    // Only its classes changed: restyled in place, its cells stay.
                    Some(row) if row.same_but_classes(&data[i]) => {
                        row.restyle(&data[i]);
                        false
                    }
                    _ => true,
                }
            };
            if !differs(i) {
                i += 1;
                continue;
            }
            // One splice per run of changed rows.
            let start = i;
            while i < shown.min(data.len()) && differs(i) {
                i += 1;
            }
            let rows: Vec<RecordRow> = data[start..i].iter().map(RecordRow::new).collect();
            store.splice(start as u32, (i - start) as u32, &rows);
            changed = true;
        }
        if shown != data.len() {
            let common = shown.min(data.len());
            let added: Vec<RecordRow> = data[common..].iter().map(RecordRow::new).collect();
            store.splice(common as u32, (shown - common) as u32, &added);
            changed = true;
        }
        changed
    }

    /// Scrolls the list so that row `row` is in view (GTK 4.8 has no `scroll_to` on the
    /// column view: its inner list view's `list.scroll-to-item` action does it).
    fn scroll_to(&self, row: u32) {
        let view = self.imp().view.get();
        glib::idle_add_local_once(move || {
            let mut child = view.first_child();
            while let Some(c) = child {
                if c.is::<gtk::ListView>() {
                    let _ = c.activate_action("list.scroll-to-item", Some(&row.to_variant()));
                    return;
                }
                child = c.next_sibling();
            }
        });
    }
}
