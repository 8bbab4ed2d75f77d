//! The bar of identifiers under the board: the GNU Backgammon ID (`Position ID:Match ID`) and
//! the XGID of the position shown, each with a button that copies it to the clipboard. Either
//! field can be typed or pasted into: Enter hands the text to the window (`id-entered`), which
//! sets the board from it the way Ctrl+V does. The window gives the identifiers to show with
//! [`IdBar::set_ids`]; the bar computes nothing.

use std::cell::RefCell;

use adw::prelude::*;
use adw::subclass::prelude::*;
use gtk::glib;

type EnteredHandler = Box<dyn Fn(String)>;

mod imp {
    use super::*;

    #[derive(Default, gtk::CompositeTemplate)]
    #[template(file = "id_bar.ui")]
    pub struct IdBar {
        #[template_child]
        pub gnubg_id: TemplateChild<gtk::Entry>,
        #[template_child]
        pub copy_gnubg_id: TemplateChild<gtk::Button>,
        #[template_child]
        pub xgid: TemplateChild<gtk::Entry>,
        #[template_child]
        pub copy_xgid: TemplateChild<gtk::Button>,
        /// The identifiers shown: (GNU Backgammon ID, XGID).
        pub ids: RefCell<(String, String)>,
        pub on_entered: RefCell<Vec<EnteredHandler>>,
    }

    impl std::fmt::Debug for IdBar {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.debug_struct("IdBar").field("ids", &self.ids).finish()
        }
    }

    #[glib::object_subclass]
    impl ObjectSubclass for IdBar {
        const NAME: &'static str = "CubefulIdBar";
        type Type = super::IdBar;
        type ParentType = gtk::Box;

        fn class_init(klass: &mut Self::Class) {
            klass.bind_template();
        }

        fn instance_init(obj: &glib::subclass::InitializingObject<Self>) {
            obj.init_template();
        }
    }

    impl ObjectImpl for IdBar {
        fn constructed(&self) {
            self.parent_constructed();
            self.obj().set_up();
        }
    }
    impl WidgetImpl for IdBar {}
    impl BoxImpl for IdBar {}
}

glib::wrapper! {
    /// The identifiers of the position on the board.
    pub struct IdBar(ObjectSubclass<imp::IdBar>)
        @extends gtk::Box, gtk::Widget,
        @implements gtk::Buildable, gtk::ConstraintTarget, gtk::Orientable;
}

impl Default for IdBar {
    fn default() -> IdBar {
        glib::Object::new()
    }
}

impl IdBar {
    fn set_up(&self) {
        let imp = self.imp();
        for (button, which) in [(&imp.copy_gnubg_id, 0), (&imp.copy_xgid, 1)] {
            button.connect_clicked(glib::clone!(
                #[weak(rename_to = bar)]
                self,
                move |_| bar.copy(which)
            ));
        }
        for entry in [&imp.gnubg_id, &imp.xgid] {
            entry.connect_activate(glib::clone!(
                #[weak(rename_to = bar)]
                self,
                move |entry| {
                    let text = entry.text().to_string();
                    // Shown again as it is until the board changes.
                    bar.show_ids();
                    for f in bar.imp().on_entered.borrow().iter() {
                        f(text.clone());
                    }
                }
            ));
        }
    }

    /// Shows `gnubg_id` and `xgid` (empty strings: nothing on the board). A field being
    /// edited keeps its text.
    pub fn set_ids(&self, gnubg_id: &str, xgid: &str) {
        let changed = {
            let mut ids = self.imp().ids.borrow_mut();
            let new = (gnubg_id.to_string(), xgid.to_string());
            let changed = *ids != new;
            *ids = new;
            changed
        };
        if changed {
            self.show_ids();
        }
    }

    /// The identifiers shown: (GNU Backgammon ID, XGID).
    pub fn ids(&self) -> (String, String) {
        self.imp().ids.borrow().clone()
    }

    /// Calls `f` with the text entered into either field (Enter).
    pub fn connect_entered<F: Fn(String) + 'static>(&self, f: F) {
        self.imp().on_entered.borrow_mut().push(Box::new(f));
    }

    /// The copy buttons' centres in the coordinates of `target` (GNU Backgammon ID, XGID),
    /// for tests to click them.
    pub fn copy_buttons(&self, target: &impl IsA<gtk::Widget>) -> [Option<(f64, f64)>; 2] {
        let imp = self.imp();
        [
            centre_in(&*imp.copy_gnubg_id, target),
            centre_in(&*imp.copy_xgid, target),
        ]
    }

    /// The centres of the two entries (GNU Backgammon ID, XGID) in `target`'s coordinates, for
    /// the end-to-end tests.
    pub fn entries(&self, target: &impl IsA<gtk::Widget>) -> [Option<(f64, f64)>; 2] {
        let imp = self.imp();
        [
            centre_in(&*imp.gnubg_id, target),
            centre_in(&*imp.xgid, target),
        ]
    }

    fn show_ids(&self) {
        let imp = self.imp();
        let (gnubg_id, xgid) = imp.ids.borrow().clone();
        for (entry, text) in [(&imp.gnubg_id, gnubg_id), (&imp.xgid, xgid)] {
            if entry.focus_child().is_none() || entry.text().is_empty() {
                entry.set_text(&text);
            }
        }
        imp.copy_gnubg_id
            .set_sensitive(!imp.ids.borrow().0.is_empty());
        imp.copy_xgid.set_sensitive(!imp.ids.borrow().1.is_empty());
    }

    /// Copies identifier `which` (0: GNU Backgammon ID, 1: XGID) to the clipboard.
    fn copy(&self, which: usize) {
        let ids = self.imp().ids.borrow().clone();
        let text = if which == 0 { ids.0 } else { ids.1 };
        if !text.is_empty() {
            self.clipboard().set_text(&text);
        }
    }
}

/// The centre of `widget` in `target`'s coordinates.
fn centre_in(widget: &impl IsA<gtk::Widget>, target: &impl IsA<gtk::Widget>) -> Option<(f64, f64)> {
    let centre =
        gtk::graphene::Point::new(widget.width() as f32 / 2.0, widget.height() as f32 / 2.0);
    widget
        .compute_point(target, &centre)
        .map(|p| (f64::from(p.x()), f64::from(p.y())))
}
