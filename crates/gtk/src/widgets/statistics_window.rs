//! The statistics window: GNU Backgammon's per-player table (chequerplay, luck, cube, overall,
//! ratings — the rows of its `show statistics match`) for the whole match or one game, chosen
//! in the header bar. The figures are the engine's (`analysis::stats`), computed from the
//! analysis stored in the record; the table's text comes from the GTK-free
//! [`crate::analysis_view::statistics_table`] (labels translated, numbers for the locale).

use std::cell::{Cell, RefCell};

use adw::subclass::prelude::*;
use gtk::glib;
use gtk::prelude::*;

use cubeful_engine::analysis::stats::{match_statistics, MatchStatistics, StatsSettings};
use cubeful_engine::game::record::MatchRecord;

use crate::analysis_view::statistics_table;
use crate::i18n::{gettext, gettext_f};

mod imp {
    use super::*;

    #[derive(Default, gtk::CompositeTemplate)]
    #[template(file = "statistics_window.ui")]
    pub struct StatisticsWindow {
        #[template_child]
        pub scope: TemplateChild<gtk::DropDown>,
        #[template_child]
        pub stack: TemplateChild<gtk::Stack>,
        #[template_child]
        pub table: TemplateChild<gtk::Grid>,
        pub stats: RefCell<Option<MatchStatistics>>,
        /// Rows in the table (for tests).
        pub rows: Cell<usize>,
        /// Set while the window changes its own selector.
        pub updating: Cell<bool>,
    }

    impl std::fmt::Debug for StatisticsWindow {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.debug_struct("StatisticsWindow")
                .field("rows", &self.rows.get())
                .finish()
        }
    }

    #[glib::object_subclass]
    impl ObjectSubclass for StatisticsWindow {
        const NAME: &'static str = "CubefulStatisticsWindow";
        type Type = super::StatisticsWindow;
        type ParentType = adw::Window;

        fn class_init(klass: &mut Self::Class) {
            klass.bind_template();
            crate::widgets::close_on_escape(klass);
        }

        fn instance_init(obj: &glib::subclass::InitializingObject<Self>) {
            obj.init_template();
        }
    }

    impl ObjectImpl for StatisticsWindow {
        fn constructed(&self) {
            self.parent_constructed();
            let obj = self.obj();
            self.scope.connect_selected_notify(glib::clone!(
                #[weak]
                obj,
                move |_| {
                    if !obj.imp().updating.get() {
                        obj.fill();
                    }
                }
            ));
        }
    }
    impl WidgetImpl for StatisticsWindow {}
    impl WindowImpl for StatisticsWindow {}
    impl AdwWindowImpl for StatisticsWindow {}
}

glib::wrapper! {
    /// The statistics window.
    pub struct StatisticsWindow(ObjectSubclass<imp::StatisticsWindow>)
        @extends adw::Window, gtk::Window, gtk::Widget,
        @implements gtk::Buildable, gtk::ConstraintTarget, gtk::Native,
                    gtk::Root, gtk::ShortcutManager;
}

impl StatisticsWindow {
    /// A statistics window over `parent`.
    pub fn new(parent: &impl IsA<gtk::Window>) -> StatisticsWindow {
        glib::Object::builder()
            .property("transient-for", parent)
            .build()
    }

    /// Shows the statistics of `record` (computed again from its stored analysis), keeping
    /// the game chosen when it still exists.
    pub fn set_record(&self, record: &MatchRecord) {
        let imp = self.imp();
        let stats = match_statistics(record, &StatsSettings::default()).ok();
        let mut labels = vec![gettext("Whole match")];
        if let Some(s) = &stats {
            for g in &s.games {
                let score = format!("{}–{}", g.score[0], g.score[1]);
                labels.push(gettext_f("Game {} ({})", &[&g.number.to_string(), &score]));
            }
        }
        let refs: Vec<&str> = labels.iter().map(String::as_str).collect();
        let selected = imp.scope.selected();
        imp.updating.set(true);
        imp.scope.set_model(Some(&gtk::StringList::new(&refs)));
        imp.scope
            .set_selected(if (selected as usize) < labels.len() {
                selected
            } else {
                0
            });
        imp.updating.set(false);
        imp.stats.replace(stats);
        self.fill();
    }

    /// Shows the whole match (`None`) or game `game` (from 0).
    pub fn select_game(&self, game: Option<usize>) {
        let index = game.map_or(0, |g| g + 1) as u32;
        self.imp().scope.set_selected(index);
    }

    /// The number of value rows shown.
    pub fn rows(&self) -> usize {
        self.imp().rows.get()
    }

    fn fill(&self) {
        let imp = self.imp();
        let table = &imp.table;
        while let Some(child) = table.first_child() {
            table.remove(&child);
        }
        let stats = imp.stats.borrow();
        let Some(stats) = stats.as_ref() else {
            imp.rows.set(0);
            imp.stack.set_visible_child_name("empty");
            return;
        };
        let game = match imp.scope.selected() {
            0 | gtk::INVALID_LIST_POSITION => None,
            n => Some(n as usize - 1),
        };
        let sections = statistics_table(stats, game);
        let analysed = stats.total.players.iter().any(|p| p.total_moves > 0);
        if sections.is_empty() || !analysed {
            imp.rows.set(0);
            imp.stack.set_visible_child_name("empty");
            return;
        }
        let label = |text: &str, xalign: f32, classes: &[&str]| {
            let l = gtk::Label::builder()
                .label(text)
                .xalign(xalign)
                .wrap(true)
                .build();
            for c in classes {
                l.add_css_class(c);
            }
            l
        };
        let mut row = 0;
        table.attach(&label(&gettext("Player"), 0.0, &["heading"]), 0, row, 1, 1);
        for (i, name) in stats.players.iter().enumerate() {
            let l = label(name, 1.0, &["heading"]);
            l.set_hexpand(true);
            table.attach(&l, 1 + i as i32, row, 1, 1);
        }
        row += 1;
        let mut rows = 0;
        for section in &sections {
            let title = label(&section.title, 0.0, &["title-4"]);
            title.set_margin_top(12);
            table.attach(&title, 0, row, 3, 1);
            row += 1;
            for r in &section.rows {
                table.attach(&label(&r[0], 0.0, &[]), 0, row, 1, 1);
                table.attach(&label(&r[1], 1.0, &["numeric"]), 1, row, 1, 1);
                table.attach(&label(&r[2], 1.0, &["numeric"]), 2, row, 1, 1);
                row += 1;
                rows += 1;
            }
        }
        imp.rows.set(rows);
        imp.stack.set_visible_child_name("table");
    }
}
