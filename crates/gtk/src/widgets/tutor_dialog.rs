//! The tutor's warning: a small window beside the board (not modal, so the main window goes
//! on drawing and nothing waits in a nested main loop) saying how bad the chosen play or cube
//! action is and what is better, with Reconsider and Keep. Closing it reconsiders. Its layout
//! and texts are in `tutor_dialog.ui`.

use std::cell::{Cell, RefCell};

use adw::prelude::*;
use adw::subclass::prelude::*;
use gtk::glib;

type AnswerHandler = Box<dyn Fn(Answer)>;

/// The person's word about the warned action.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Take the action back and choose again.
    Reconsider,
    /// Commit the action as chosen.
    Keep,
}

mod imp {
    use super::*;

    #[derive(Default, gtk::CompositeTemplate)]
    #[template(file = "tutor_dialog.ui")]
    pub struct TutorDialog {
        #[template_child]
        pub judgement_label: TemplateChild<gtk::Label>,
        #[template_child]
        pub better_label: TemplateChild<gtk::Label>,
        #[template_child]
        pub keep_button: TemplateChild<gtk::Button>,
        #[template_child]
        pub reconsider_button: TemplateChild<gtk::Button>,
        pub on_answer: RefCell<Vec<AnswerHandler>>,
        /// Answered (or closed by the window): closing says nothing more.
        pub answered: Cell<bool>,
    }

    impl std::fmt::Debug for TutorDialog {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.debug_struct("TutorDialog").finish_non_exhaustive()
        }
    }

    #[glib::object_subclass]
    impl ObjectSubclass for TutorDialog {
        const NAME: &'static str = "CubefulTutorDialog";
        type Type = super::TutorDialog;
        type ParentType = adw::Window;

        fn class_init(klass: &mut Self::Class) {
            klass.bind_template();
            klass.add_binding(
                gtk::gdk::Key::Escape,
                gtk::gdk::ModifierType::empty(),
                |dialog| {
                    dialog.answer(Answer::Reconsider);
                    glib::Propagation::Stop
                },
            );
        }

        fn instance_init(obj: &glib::subclass::InitializingObject<Self>) {
            obj.init_template();
        }
    }

    impl ObjectImpl for TutorDialog {
        fn constructed(&self) {
            self.parent_constructed();
            let obj = self.obj();
            self.keep_button.connect_clicked(glib::clone!(
                #[weak]
                obj,
                move |_| obj.answer(Answer::Keep)
            ));
            self.reconsider_button.connect_clicked(glib::clone!(
                #[weak]
                obj,
                move |_| obj.answer(Answer::Reconsider)
            ));
            obj.set_default_widget(Some(&*self.reconsider_button));
        }
    }

    impl WidgetImpl for TutorDialog {}
    impl WindowImpl for TutorDialog {
        fn close_request(&self) -> glib::Propagation {
            // Closed without an answer: nothing is committed.
            if !self.answered.get() {
                self.answered.set(true);
                for f in self.on_answer.borrow().iter() {
                    f(Answer::Reconsider);
                }
            }
            self.parent_close_request()
        }
    }
    impl AdwWindowImpl for TutorDialog {}
}

glib::wrapper! {
    /// The tutor's warning.
    pub struct TutorDialog(ObjectSubclass<imp::TutorDialog>)
        @extends adw::Window, gtk::Window, gtk::Widget,
        @implements gtk::Buildable, gtk::ConstraintTarget, gtk::Native, gtk::Root,
                    gtk::ShortcutManager;
}

impl TutorDialog {
    /// A warning over `parent` saying `judgement` (how bad the choice is) and `better` (the
    /// better choice).
    pub fn new(parent: &impl IsA<gtk::Window>, judgement: &str, better: &str) -> TutorDialog {
        let dialog: TutorDialog = glib::Object::builder()
            .property("transient-for", parent)
            .build();
        dialog.imp().judgement_label.set_label(judgement);
        dialog.imp().better_label.set_label(better);
        dialog
    }

    /// Calls `f` with the person's answer (once; closing the window is Reconsider).
    pub fn connect_answer<F: Fn(Answer) + 'static>(&self, f: F) {
        self.imp().on_answer.borrow_mut().push(Box::new(f));
    }

    /// The two sentences shown.
    pub fn texts(&self) -> (String, String) {
        let imp = self.imp();
        (
            imp.judgement_label.label().to_string(),
            imp.better_label.label().to_string(),
        )
    }

    /// The centres of the Reconsider and Keep buttons in the coordinates of the dialog's
    /// surface (for tests), once laid out.
    pub fn button_centres(&self) -> Option<[(f64, f64); 2]> {
        let imp = self.imp();
        let (sx, sy) = self.surface_transform();
        let centre = |b: &gtk::Button| {
            let bounds = b.compute_bounds(self)?;
            if bounds.width() <= 0.0 {
                return None;
            }
            Some((
                f64::from(bounds.x() + bounds.width() / 2.0) + sx,
                f64::from(bounds.y() + bounds.height() / 2.0) + sy,
            ))
        };
        Some([centre(&imp.reconsider_button)?, centre(&imp.keep_button)?])
    }

    /// Closes the dialog without an answer (the window does not want one any more).
    pub fn dismiss(&self) {
        self.imp().answered.set(true);
        self.close();
    }

    fn answer(&self, answer: Answer) {
        let imp = self.imp();
        if imp.answered.replace(true) {
            return;
        }
        for f in imp.on_answer.borrow().iter() {
            f(answer);
        }
        self.close();
    }
}
