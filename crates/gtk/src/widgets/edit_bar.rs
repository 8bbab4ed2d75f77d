//! Edit mode's bar under the board: who is on roll, the score, the match length (0: money
//! play), the Crawford game, Clear and Starting Position, the pip counts, the sentence saying
//! why the position cannot be played from, and Play From Here and Cancel. The window shows a
//! draft with [`EditBar::show`]; what the user changes comes back as [`EditOp`]s
//! ([`EditBar::connect_op`]). The bar computes nothing.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use adw::prelude::*;
use adw::subclass::prelude::*;
use gtk::glib;

use crate::board::Seat;
use crate::edit::{Draft, EditOp};
use crate::i18n::gettext_f;

type OpHandler = Rc<dyn Fn(EditOp)>;
type Handler = Rc<dyn Fn()>;

mod imp {
    use super::*;

    #[derive(Default, gtk::CompositeTemplate)]
    #[template(file = "edit_bar.ui")]
    pub struct EditBar {
        #[template_child]
        pub on_roll_bottom: TemplateChild<gtk::CheckButton>,
        #[template_child]
        pub on_roll_top: TemplateChild<gtk::CheckButton>,
        #[template_child]
        pub score_bottom_label: TemplateChild<gtk::Label>,
        #[template_child]
        pub score_bottom: TemplateChild<gtk::SpinButton>,
        #[template_child]
        pub score_top_label: TemplateChild<gtk::Label>,
        #[template_child]
        pub score_top: TemplateChild<gtk::SpinButton>,
        #[template_child]
        pub length: TemplateChild<gtk::SpinButton>,
        #[template_child]
        pub crawford: TemplateChild<gtk::CheckButton>,
        #[template_child]
        pub pips: TemplateChild<gtk::Label>,
        #[template_child]
        pub message: TemplateChild<gtk::Label>,
        #[template_child]
        pub clear: TemplateChild<gtk::Button>,
        #[template_child]
        pub starting: TemplateChild<gtk::Button>,
        #[template_child]
        pub cancel: TemplateChild<gtk::Button>,
        #[template_child]
        pub play: TemplateChild<gtk::Button>,
        /// True while `show` sets the widgets (their signals are not the user's).
        pub updating: Cell<bool>,
        pub on_op: RefCell<Vec<OpHandler>>,
        pub on_play: RefCell<Vec<Handler>>,
        pub on_cancel: RefCell<Vec<Handler>>,
    }

    impl std::fmt::Debug for EditBar {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.debug_struct("EditBar").finish()
        }
    }

    #[glib::object_subclass]
    impl ObjectSubclass for EditBar {
        const NAME: &'static str = "CubefulEditBar";
        type Type = super::EditBar;
        type ParentType = gtk::Box;

        fn class_init(klass: &mut Self::Class) {
            klass.bind_template();
        }

        fn instance_init(obj: &glib::subclass::InitializingObject<Self>) {
            obj.init_template();
        }
    }

    impl ObjectImpl for EditBar {
        fn constructed(&self) {
            self.parent_constructed();
            self.obj().set_up();
        }
    }
    impl WidgetImpl for EditBar {}
    impl BoxImpl for EditBar {}
}

glib::wrapper! {
    /// Edit mode's settings and buttons.
    pub struct EditBar(ObjectSubclass<imp::EditBar>)
        @extends gtk::Box, gtk::Widget,
        @implements gtk::Buildable, gtk::ConstraintTarget, gtk::Orientable;
}

impl Default for EditBar {
    fn default() -> EditBar {
        glib::Object::new()
    }
}

impl EditBar {
    /// A new bar.
    pub fn new() -> EditBar {
        EditBar::default()
    }

    fn set_up(&self) {
        let imp = self.imp();
        for (button, seat) in [
            (&*imp.on_roll_bottom, Seat::Bottom),
            (&*imp.on_roll_top, Seat::Top),
        ] {
            button.connect_toggled(glib::clone!(
                #[weak(rename_to = bar)]
                self,
                move |b| {
                    if b.is_active() {
                        bar.emit_op(EditOp::Turn(seat));
                    }
                }
            ));
        }
        for (spin, seat) in [
            (&*imp.score_bottom, Seat::Bottom),
            (&*imp.score_top, Seat::Top),
        ] {
            spin.connect_value_changed(glib::clone!(
                #[weak(rename_to = bar)]
                self,
                move |s| bar.emit_op(EditOp::Score {
                    seat,
                    score: s.value_as_int().clamp(0, 999) as u16,
                })
            ));
        }
        imp.length.connect_value_changed(glib::clone!(
            #[weak(rename_to = bar)]
            self,
            move |s| bar.emit_op(EditOp::Length(s.value_as_int().clamp(0, 999) as u16))
        ));
        imp.crawford.connect_toggled(glib::clone!(
            #[weak(rename_to = bar)]
            self,
            move |c| bar.emit_op(EditOp::Crawford(c.is_active()))
        ));
        imp.clear.connect_clicked(glib::clone!(
            #[weak(rename_to = bar)]
            self,
            move |_| bar.emit_op(EditOp::Clear)
        ));
        imp.starting.connect_clicked(glib::clone!(
            #[weak(rename_to = bar)]
            self,
            move |_| bar.emit_op(EditOp::Starting)
        ));
        imp.play.connect_clicked(glib::clone!(
            #[weak(rename_to = bar)]
            self,
            move |_| {
                let handlers = bar.imp().on_play.borrow().clone();
                handlers.iter().for_each(|f| f());
            }
        ));
        imp.cancel.connect_clicked(glib::clone!(
            #[weak(rename_to = bar)]
            self,
            move |_| {
                let handlers = bar.imp().on_cancel.borrow().clone();
                handlers.iter().for_each(|f| f());
            }
        ));
    }

    fn emit_op(&self, op: EditOp) {
        if self.imp().updating.get() {
            return;
        }
        let handlers = self.imp().on_op.borrow().clone();
        handlers.iter().for_each(|f| f(op));
    }

    /// Calls `f` with every change the user makes in the bar.
    pub fn connect_op(&self, f: impl Fn(EditOp) + 'static) {
        self.imp().on_op.borrow_mut().push(Rc::new(f));
    }

    /// Calls `f` when Play From Here is clicked.
    pub fn connect_play(&self, f: impl Fn() + 'static) {
        self.imp().on_play.borrow_mut().push(Rc::new(f));
    }

    /// Calls `f` when Cancel is clicked.
    pub fn connect_cancel(&self, f: impl Fn() + 'static) {
        self.imp().on_cancel.borrow_mut().push(Rc::new(f));
    }

    /// Shows `draft`; `problem` is the sentence saying why it cannot be played from.
    pub fn show(&self, draft: &Draft, problem: Option<&str>) {
        let imp = self.imp();
        imp.updating.set(true);
        let [bottom, top] = &draft.names;
        imp.on_roll_bottom.set_label(Some(bottom));
        imp.on_roll_top.set_label(Some(top));
        match draft.on_roll {
            Seat::Bottom => imp.on_roll_bottom.set_active(true),
            Seat::Top => imp.on_roll_top.set_active(true),
        }
        imp.score_bottom_label.set_label(bottom);
        imp.score_top_label.set_label(top);
        imp.score_bottom.set_value(f64::from(draft.score[0]));
        imp.score_top.set_value(f64::from(draft.score[1]));
        imp.length.set_value(f64::from(draft.match_length));
        imp.crawford.set_active(draft.crawford);
        imp.crawford.set_sensitive(draft.match_length > 0);
        let pips = draft.pips();
        imp.pips.set_label(&gettext_f(
            "Pips: {} {} · {} {}",
            &[bottom, &pips[0].to_string(), top, &pips[1].to_string()],
        ));
        imp.message.set_label(problem.unwrap_or(""));
        imp.play.set_sensitive(problem.is_none());
        imp.updating.set(false);
    }

    /// The sentence shown, the pip counts' text, and where the buttons are in `target`'s
    /// coordinates (for end-to-end tests).
    pub fn debug_state(&self, target: &impl IsA<gtk::Widget>) -> serde_json::Value {
        let imp = self.imp();
        let centre = |w: &gtk::Widget| {
            let p = gtk::graphene::Point::new(w.width() as f32 / 2.0, w.height() as f32 / 2.0);
            w.compute_point(target, &p)
                .map(|p| [f64::from(p.x()), f64::from(p.y())])
        };
        serde_json::json!({
            "message": imp.message.label().as_str(),
            "pips_text": imp.pips.label().as_str(),
            "play_sensitive": imp.play.is_sensitive(),
            "play_xy": centre(imp.play.upcast_ref()),
            "cancel_xy": centre(imp.cancel.upcast_ref()),
            "clear_xy": centre(imp.clear.upcast_ref()),
            "starting_xy": centre(imp.starting.upcast_ref()),
            "on_roll_xy": [centre(imp.on_roll_bottom.upcast_ref()), centre(imp.on_roll_top.upcast_ref())],
            "length_xy": centre(imp.length.upcast_ref()),
        })
    }
}
