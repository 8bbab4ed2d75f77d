//! The analysis pane under the record pane: what the stored analysis says about the selected
//! action — the ranked candidate plays of a checker play (the play made highlighted; a click
//! shows a play on the board), the cube decision with the proper action and the error, the
//! luck of the roll — and the controls to analyse the decision again at a chosen level or roll
//! it out, with a progress bar and a stop button shared with the background analysis.
//!
//! The pane shows an [`ActionView`] (the GTK-free `analysis_view` module makes it); the
//! window (`widgets/window/analysis.rs`) follows the match model's `selected-game`,
//! `selected-entry` and `record-revision` and hands the pane the view of the selected action.
//! The candidates are [`CandidateItem`] objects in a `gio::ListStore` shown by a `GtkListView`,
//! two lines each as GNU Backgammon shows them.

use std::cell::{Cell, RefCell};

use adw::subclass::prelude::*;
use gtk::prelude::*;
use gtk::{gio, glib};

use crate::analysis_view::{ActionView, CandidateRow};
use crate::i18n::gettext;

type IndexHandler = Box<dyn Fn(usize)>;

/// The analysis levels offered, in plies: 0-ply is GNU Backgammon's Expert, 2-ply its World
/// Class (the default), 3-ply Supremo.
pub const LEVEL_PLIES: [u8; 4] = [0, 1, 2, 3];

/// The level chosen at first (2-ply, World Class).
pub const DEFAULT_LEVEL: usize = 2;

/// The name of an analysis level of [`LEVEL_PLIES`].
pub fn level_label(plies: u8) -> String {
    match plies {
        0 => gettext("0-ply (Expert)"),
        1 => gettext("1-ply"),
        2 => gettext("2-ply (World Class)"),
        _ => gettext("3-ply (Supremo)"),
    }
}

mod item_imp {
    use super::*;

    #[derive(Debug, Default, glib::Properties)]
    #[properties(wrapper_type = super::CandidateItem)]
    pub struct CandidateItem {
        /// From 1.
        #[property(get, construct_only)]
        pub rank: Cell<u32>,
        #[property(get, construct_only)]
        pub text: RefCell<String>,
        #[property(get, construct_only)]
        pub equity: RefCell<String>,
        #[property(get, construct_only)]
        pub difference: RefCell<String>,
        /// The chances, "0.502 0.129 0.008 – 0.498 0.135 0.005".
        #[property(get, construct_only)]
        pub chances: RefCell<String>,
        #[property(get, construct_only)]
        pub level: RefCell<String>,
        /// The play made.
        #[property(get, construct_only)]
        pub played: Cell<bool>,
    }

    #[glib::object_subclass]
    impl ObjectSubclass for CandidateItem {
        const NAME: &'static str = "CubefulCandidateItem";
        type Type = super::CandidateItem;
    }

    #[glib::derived_properties]
    impl ObjectImpl for CandidateItem {}
}

glib::wrapper! {
    /// One candidate play in the analysis pane.
    pub struct CandidateItem(ObjectSubclass<item_imp::CandidateItem>);
}

impl CandidateItem {
    /// The item of `row`.
    pub fn new(row: &CandidateRow) -> CandidateItem {
        let chances = if row.chances.len() == 6 {
            format!(
                "{} – {}",
                row.chances[..3].join(" "),
                row.chances[3..].join(" ")
            )
        } else {
            String::new()
        };
        glib::Object::builder()
            .property("rank", u32::try_from(row.rank).unwrap_or(u32::MAX))
            .property("text", &row.text)
            .property("equity", &row.equity)
            .property("difference", &row.difference)
            .property("chances", chances)
            .property("level", &row.level)
            .property("played", row.played)
            .build()
    }
}

mod imp {
    use super::*;

    #[derive(Default, gtk::CompositeTemplate)]
    #[template(file = "analysis_pane.ui")]
    pub struct AnalysisPane {
        #[template_child]
        pub heading: TemplateChild<gtk::Label>,
        #[template_child]
        pub skill: TemplateChild<gtk::Label>,
        #[template_child]
        pub cube_box: TemplateChild<gtk::Box>,
        #[template_child]
        pub cube_title: TemplateChild<gtk::Label>,
        #[template_child]
        pub cube_grid: TemplateChild<gtk::Grid>,
        #[template_child]
        pub cube_chances: TemplateChild<gtk::Label>,
        #[template_child]
        pub cube_proper: TemplateChild<gtk::Label>,
        #[template_child]
        pub cube_error: TemplateChild<gtk::Label>,
        #[template_child]
        pub luck: TemplateChild<gtk::Label>,
        #[template_child]
        pub scroller: TemplateChild<gtk::ScrolledWindow>,
        #[template_child]
        pub candidates: TemplateChild<gtk::ListView>,
        #[template_child]
        pub progress_box: TemplateChild<gtk::Box>,
        #[template_child]
        pub controls: TemplateChild<gtk::Stack>,
        #[template_child]
        pub stop_button: TemplateChild<gtk::Button>,
        #[template_child]
        pub progress: TemplateChild<gtk::ProgressBar>,
        #[template_child]
        pub level: TemplateChild<gtk::DropDown>,
        #[template_child]
        pub evaluate_button: TemplateChild<gtk::Button>,
        #[template_child]
        pub rollout_button: TemplateChild<gtk::Button>,
        pub items: RefCell<Option<gio::ListStore>>,
        pub on_candidate: RefCell<Vec<IndexHandler>>,
        /// What the pane shows (`None` until it first shows something), so that showing the
        /// same again (the record changed elsewhere) builds nothing.
        pub shown: RefCell<Option<Option<ActionView>>>,
    }

    impl std::fmt::Debug for AnalysisPane {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.debug_struct("AnalysisPane").finish_non_exhaustive()
        }
    }

    #[glib::object_subclass]
    impl ObjectSubclass for AnalysisPane {
        const NAME: &'static str = "CubefulAnalysisPane";
        type Type = super::AnalysisPane;
        type ParentType = gtk::Box;

        fn class_init(klass: &mut Self::Class) {
            klass.bind_template();
        }

        fn instance_init(obj: &glib::subclass::InitializingObject<Self>) {
            obj.init_template();
        }
    }

    impl ObjectImpl for AnalysisPane {
        fn constructed(&self) {
            self.parent_constructed();
            self.obj().set_up();
        }
    }
    impl WidgetImpl for AnalysisPane {}
    impl BoxImpl for AnalysisPane {}
}

glib::wrapper! {
    /// The analysis pane.
    pub struct AnalysisPane(ObjectSubclass<imp::AnalysisPane>)
        @extends gtk::Box, gtk::Widget,
        @implements gtk::Buildable, gtk::ConstraintTarget, gtk::Orientable;
}

impl Default for AnalysisPane {
    fn default() -> AnalysisPane {
        AnalysisPane::new()
    }
}

impl AnalysisPane {
    /// An empty pane.
    pub fn new() -> AnalysisPane {
        glib::Object::new()
    }

    /// Calls `f` with the index of a candidate play the user clicked (from 0, best first).
    pub fn connect_candidate_activated<F: Fn(usize) + 'static>(&self, f: F) {
        self.imp().on_candidate.borrow_mut().push(Box::new(f));
    }

    /// The candidate plays shown.
    pub fn items(&self) -> gio::ListStore {
        self.imp()
            .items
            .borrow()
            .clone()
            .expect("the items are made in constructed")
    }

    /// The analysis level chosen, in plies.
    pub fn level_plies(&self) -> u8 {
        let i = self.imp().level.selected() as usize;
        LEVEL_PLIES
            .get(i)
            .copied()
            .unwrap_or(LEVEL_PLIES[DEFAULT_LEVEL])
    }

    /// Chooses the level of `plies` plies (one of [`LEVEL_PLIES`]; others are ignored).
    pub fn set_level_plies(&self, plies: u8) {
        if let Some(i) = LEVEL_PLIES.iter().position(|&p| p == plies) {
            self.imp().level.set_selected(i as u32);
        }
    }

    /// The level selector (for tests, which click it).
    pub fn level_selector(&self) -> gtk::DropDown {
        self.imp().level.get()
    }

    /// The button that stops the running analysis (shown while one runs).
    pub fn stop_button(&self) -> gtk::Button {
        self.imp().stop_button.get()
    }

    /// The heading shown (for tests).
    pub fn heading(&self) -> String {
        self.imp().heading.label().to_string()
    }

    fn set_up(&self) {
        let imp = self.imp();
        let names: Vec<String> = LEVEL_PLIES.iter().map(|&p| level_label(p)).collect();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        imp.level.set_model(Some(&gtk::StringList::new(&refs)));
        imp.level.set_selected(DEFAULT_LEVEL as u32);
        let store = gio::ListStore::new::<CandidateItem>();
        imp.candidates
            .set_model(Some(&gtk::SingleSelection::new(Some(store.clone()))));
        imp.items.replace(Some(store));
        imp.candidates.set_factory(Some(&Self::factory()));
        imp.candidates.connect_activate(glib::clone!(
            #[weak(rename_to = pane)]
            self,
            move |_, position| {
                for f in pane.imp().on_candidate.borrow().iter() {
                    f(position as usize);
                }
            }
        ));
    }

    /// Two lines per play: rank, play, equity and difference; the chances and the level.
    fn factory() -> gtk::SignalListItemFactory {
        let factory = gtk::SignalListItemFactory::new();
        factory.connect_setup(|_, item| {
            let Some(item) = item.downcast_ref::<gtk::ListItem>() else {
                return;
            };
            let grid = gtk::Grid::builder()
                .column_spacing(8)
                .row_spacing(1)
                .margin_top(3)
                .margin_bottom(3)
                .build();
            let label = |xalign: f32, classes: &[&str]| {
                let l = gtk::Label::builder().xalign(xalign).build();
                for c in classes {
                    l.add_css_class(c);
                }
                l
            };
            let rank = label(1.0, &["numeric"]);
            rank.set_width_chars(3);
            let text = label(0.0, &[]);
            text.set_hexpand(true);
            text.set_ellipsize(gtk::pango::EllipsizeMode::End);
            let equity = label(1.0, &["numeric"]);
            let difference = label(1.0, &["numeric"]);
            difference.set_width_chars(6);
            let chances = label(0.0, &["dim-label", "numeric", "caption"]);
            let level = label(1.0, &["dim-label", "caption"]);
            grid.attach(&rank, 0, 0, 1, 1);
            grid.attach(&text, 1, 0, 1, 1);
            grid.attach(&equity, 2, 0, 1, 1);
            grid.attach(&difference, 3, 0, 1, 1);
            grid.attach(&chances, 1, 1, 1, 1);
            grid.attach(&level, 2, 1, 2, 1);
            item.set_child(Some(&grid));
        });
        factory.connect_bind(|_, item| {
            let Some(item) = item.downcast_ref::<gtk::ListItem>() else {
                return;
            };
            let (Some(grid), Some(c)) = (
                item.child().and_downcast::<gtk::Grid>(),
                item.item().and_downcast::<CandidateItem>(),
            ) else {
                return;
            };
            let at =
                |column: i32, row: i32| grid.child_at(column, row).and_downcast::<gtk::Label>();
            let played = c.played();
            if let Some(l) = at(0, 0) {
                l.set_label(&format!("{}{}", c.rank(), if played { "*" } else { "" }));
            }
            if let Some(l) = at(1, 0) {
                let text = glib::markup_escape_text(&c.text());
                l.set_markup(&format!("<b>{text}</b>"));
            }
            if let Some(l) = at(2, 0) {
                l.set_label(&c.equity());
            }
            if let Some(l) = at(3, 0) {
                l.set_label(&c.difference());
            }
            if let Some(l) = at(1, 1) {
                l.set_label(&c.chances());
            }
            if let Some(l) = at(2, 1) {
                l.set_label(&c.level());
            }
            // The play made stands out (and says so in its tooltip).
            if played {
                grid.add_css_class("accent");
                grid.set_tooltip_text(Some(&gettext("The play made")));
            } else {
                grid.remove_css_class("accent");
                grid.set_tooltip_text(None);
            }
        });
        factory
    }

    /// Shows `view` (the selected action's analysis), or with `None` the hint to select an
    /// action.
    pub fn show(&self, view: Option<&ActionView>) {
        let imp = self.imp();
        if imp.shown.borrow().as_ref().map(Option::as_ref) == Some(view) {
            return;
        }
        imp.shown.replace(Some(view.cloned()));
        let store = self.items();
        let Some(view) = view else {
            imp.heading.set_label(&gettext(
                "Select an action in the record to see its analysis.",
            ));
            imp.skill.set_visible(false);
            imp.cube_box.set_visible(false);
            imp.luck.set_visible(false);
            store.remove_all();
            imp.scroller.set_visible(false);
            return;
        };
        imp.heading.set_label(&view.heading);
        let skill = if view.skill.is_empty() {
            &view.cube_skill
        } else {
            &view.skill
        };
        imp.skill.set_label(skill);
        imp.skill.set_visible(!skill.is_empty());
        for class in ["mark-doubtful", "mark-bad", "mark-very-bad"] {
            imp.skill.remove_css_class(class);
        }
        if let Some(class) = mark_class(skill) {
            imp.skill.add_css_class(class);
        }
        // The cube decision.
        match &view.cube {
            Some(cube) => {
                imp.cube_box.set_visible(true);
                imp.cube_title.set_label(&cube.title);
                while let Some(child) = imp.cube_grid.first_child() {
                    imp.cube_grid.remove(&child);
                }
                for (i, row) in cube.rows.iter().enumerate() {
                    let i = i as i32;
                    let cell = |text: &str, column: i32, xalign: f32| {
                        let l = gtk::Label::builder().label(text).xalign(xalign).build();
                        l.add_css_class("numeric");
                        if row.best {
                            l.add_css_class("accent");
                        }
                        imp.cube_grid.attach(&l, column, i, 1, 1);
                    };
                    cell(&row.label, 0, 0.0);
                    cell(&row.equity, 1, 1.0);
                    cell(&row.difference, 2, 1.0);
                }
                imp.cube_chances
                    .set_label(&format!("{}   {}", cube.chances.join(" "), cube.level));
                imp.cube_proper.set_label(&cube.proper);
                imp.cube_error
                    .set_label(cube.error.as_deref().unwrap_or_default());
                imp.cube_error.set_visible(cube.error.is_some());
            }
            None => imp.cube_box.set_visible(false),
        }
        imp.luck.set_label(view.luck.as_deref().unwrap_or_default());
        imp.luck.set_visible(view.luck.is_some());
        // The candidates.
        let items: Vec<CandidateItem> = view.moves.iter().map(CandidateItem::new).collect();
        store.splice(0, store.n_items(), &items);
        imp.scroller.set_visible(!items.is_empty());
        if !view.analysed {
            imp.luck.set_visible(true);
            imp.luck.set_label(&gettext("Not analysed yet."));
        }
    }

    /// Shows how far an analysis has got (`fraction` 0 to 1, `None`: still starting, the bar
    /// pulses) with `text`; `None` hides the bar.
    pub fn set_progress(&self, progress: Option<(Option<f64>, &str)>) {
        let imp = self.imp();
        match progress {
            Some((fraction, text)) => {
                imp.controls.set_visible_child(&*imp.progress_box);
                match fraction {
                    Some(f) => imp.progress.set_fraction(f.clamp(0.0, 1.0)),
                    None => imp.progress.pulse(),
                }
                imp.progress.set_text(Some(text));
            }
            None => imp.controls.set_visible_child_name("buttons"),
        }
    }

    /// The progress bar is shown (an analysis runs).
    pub fn is_busy(&self) -> bool {
        let imp = self.imp();
        imp.controls.visible_child().as_ref() == Some(imp.progress_box.upcast_ref())
    }
}

/// The CSS class of a translated mark name.
fn mark_class(skill: &str) -> Option<&'static str> {
    use cubeful_engine::game::record::analysis::Skill;
    [Skill::Doubtful, Skill::Bad, Skill::VeryBad]
        .into_iter()
        .find(|&s| crate::analysis_view::skill_text(s) == skill)
        .map(crate::review::skill_class)
}
