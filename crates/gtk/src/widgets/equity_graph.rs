//! The equity graph window: player 0's match winning chance (or money equity) after every
//! analysed decision of the match, errors marked by severity, the selected action highlighted;
//! a click on a point selects its action. Drawn with Cairo in a `GtkDrawingArea`, lines snapped
//! to device pixels so that it stays crisp at any scale factor. The points and the geometry
//! (placing, hit testing) come from the GTK-free [`crate::equity_graph_data`].

use std::cell::{Cell, RefCell};

use adw::subclass::prelude::*;
use gtk::prelude::*;
use gtk::{cairo, glib};

use cubeful_engine::game::record::analysis::Skill;

use crate::equity_graph_data::{Geometry, GraphData};
use crate::format;
use crate::i18n::{gettext, gettext_f};

type SelectHandler = Box<dyn Fn(usize, usize)>;

mod imp {
    use super::*;

    #[derive(Default, gtk::CompositeTemplate)]
    #[template(file = "equity_graph.ui")]
    pub struct EquityGraph {
        #[template_child]
        pub area: TemplateChild<gtk::DrawingArea>,
        #[template_child]
        pub legend: TemplateChild<gtk::Label>,
        pub data: RefCell<GraphData>,
        /// Player 0's name, for the axis.
        pub player: RefCell<String>,
        /// The index of the highlighted point.
        pub current: Cell<Option<usize>>,
        pub on_select: RefCell<Vec<SelectHandler>>,
    }

    impl std::fmt::Debug for EquityGraph {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.debug_struct("EquityGraph")
                .field("points", &self.data.borrow().points.len())
                .finish()
        }
    }

    #[glib::object_subclass]
    impl ObjectSubclass for EquityGraph {
        const NAME: &'static str = "CubefulEquityGraph";
        type Type = super::EquityGraph;
        type ParentType = adw::Window;

        fn class_init(klass: &mut Self::Class) {
            klass.bind_template();
            crate::widgets::close_on_escape(klass);
        }

        fn instance_init(obj: &glib::subclass::InitializingObject<Self>) {
            obj.init_template();
        }
    }

    impl ObjectImpl for EquityGraph {
        fn constructed(&self) {
            self.parent_constructed();
            self.obj().set_up();
        }
    }
    impl WidgetImpl for EquityGraph {}
    impl WindowImpl for EquityGraph {}
    impl AdwWindowImpl for EquityGraph {}
}

glib::wrapper! {
    /// The equity graph window.
    pub struct EquityGraph(ObjectSubclass<imp::EquityGraph>)
        @extends adw::Window, gtk::Window, gtk::Widget,
        @implements gtk::Buildable, gtk::ConstraintTarget, gtk::Native,
                    gtk::Root, gtk::ShortcutManager;
}

/// The colour of an error mark (readable on light and dark backgrounds).
fn mark_colour(skill: Skill) -> Option<(f64, f64, f64)> {
    match skill {
        Skill::None => None,
        Skill::Doubtful => Some((0.90, 0.65, 0.04)),
        Skill::Bad => Some((0.96, 0.47, 0.0)),
        Skill::VeryBad => Some((0.88, 0.11, 0.14)),
    }
}

impl EquityGraph {
    /// A graph window over `parent`.
    pub fn new(parent: &impl IsA<gtk::Window>) -> EquityGraph {
        glib::Object::builder()
            .property("transient-for", parent)
            .build()
    }

    /// Calls `f(game, entry)` when the user clicks a point.
    pub fn connect_select<F: Fn(usize, usize) + 'static>(&self, f: F) {
        self.imp().on_select.borrow_mut().push(Box::new(f));
    }

    /// Shows `data`; `player` is player 0's name.
    pub fn set_data(&self, data: GraphData, player: &str) {
        let imp = self.imp();
        let text = if data.points.is_empty() {
            gettext("Nothing analysed yet: analyse the match to see the graph.")
        } else if data.money {
            gettext_f(
                "{}'s equity after every analysed decision. Marked: doubtful (yellow), bad (orange), very bad (red).",
                &[player],
            )
        } else {
            gettext_f(
                "{}'s match winning chance after every analysed decision. Marked: doubtful (yellow), bad (orange), very bad (red).",
                &[player],
            )
        };
        imp.legend.set_label(&text);
        imp.data.replace(data);
        imp.player.replace(player.to_string());
        imp.area.queue_draw();
    }

    /// Highlights the point of action `entry` of game `game` (or the last before it).
    pub fn set_current(&self, selection: Option<(usize, usize)>) {
        let imp = self.imp();
        let index = selection.and_then(|(g, e)| imp.data.borrow().index_of(g, e));
        if index != imp.current.get() {
            imp.current.set(index);
            imp.area.queue_draw();
        }
    }

    /// The number of points drawn.
    pub fn points(&self) -> usize {
        self.imp().data.borrow().points.len()
    }

    fn set_up(&self) {
        let imp = self.imp();
        imp.area.set_draw_func(glib::clone!(
            #[weak(rename_to = graph)]
            self,
            move |area, cr, width, height| graph.draw(area, cr, width, height)
        ));
        let click = gtk::GestureClick::new();
        click.connect_released(glib::clone!(
            #[weak(rename_to = graph)]
            self,
            move |_, _, x, y| graph.clicked(x, y)
        ));
        imp.area.add_controller(click);
    }

    fn clicked(&self, x: f64, y: f64) {
        let imp = self.imp();
        let (w, h) = (imp.area.width(), imp.area.height());
        let hit = {
            let data = imp.data.borrow();
            Geometry::new(&data, f64::from(w), f64::from(h))
                .hit(x, y)
                .map(|i| (data.points[i].game, data.points[i].entry))
        };
        if let Some((game, entry)) = hit {
            for f in imp.on_select.borrow().iter() {
                f(game, entry);
            }
        }
    }

    fn draw(&self, area: &gtk::DrawingArea, cr: &cairo::Context, width: i32, height: i32) {
        let imp = self.imp();
        let data = imp.data.borrow();
        let scale = f64::from(area.scale_factor().max(1));
        // A coordinate on the device pixel grid, at a pixel's centre: 1-pixel lines stay sharp.
        let snap = |v: f64| (v * scale).floor() / scale + 0.5 / scale;
        #[allow(deprecated)]
        let fg = area.style_context().color();
        let (r, g, b) = (
            f64::from(fg.red()),
            f64::from(fg.green()),
            f64::from(fg.blue()),
        );
        let geo = Geometry::new(&data, f64::from(width), f64::from(height));
        let layout = |text: &str| {
            let l = area.create_pango_layout(Some(text));
            let mut font = area.pango_context().font_description().unwrap_or_default();
            font.set_size(font.size() * 85 / 100);
            l.set_font_description(Some(&font));
            l
        };
        cr.set_line_width(1.0 / scale);
        // Horizontal grid lines with their labels.
        let ticks: Vec<f64> = if data.money {
            let step = if geo.max > 1.5 { 1.0 } else { 0.5 };
            let mut t = Vec::new();
            let mut v = geo.min;
            while v <= geo.max + 1e-9 {
                t.push(v);
                v += step;
            }
            t
        } else {
            vec![0.0, 0.25, 0.5, 0.75, 1.0]
        };
        for &v in &ticks {
            let y = snap(geo.y(v));
            let middle = if data.money { v == 0.0 } else { v == 0.5 };
            cr.set_source_rgba(r, g, b, if middle { 0.45 } else { 0.15 });
            cr.move_to(geo.left, y);
            cr.line_to(geo.left + geo.width, y);
            let _ = cr.stroke();
            let text = if data.money {
                format::number(v, 1)
            } else {
                format::percent(v, 0)
            };
            let l = layout(&text);
            let (tw, th) = l.pixel_size();
            cr.set_source_rgba(r, g, b, 0.7);
            cr.move_to(
                geo.left - 6.0 - f64::from(tw),
                geo.y(v) - f64::from(th) / 2.0,
            );
            pangocairo::functions::show_layout(cr, &l);
        }
        // Game boundaries.
        for (n, &start) in data.game_starts.iter().enumerate() {
            let x = if start == 0 {
                geo.left
            } else {
                (geo.x(start - 1) + geo.x(start)) / 2.0
            };
            let x = snap(x);
            cr.set_source_rgba(r, g, b, 0.25);
            cr.set_dash(&[4.0 / scale * scale.min(2.0), 3.0], 0.0);
            cr.move_to(x, geo.top);
            cr.line_to(x, geo.top + geo.height);
            let _ = cr.stroke();
            cr.set_dash(&[], 0.0);
            let game = data.points[start].game + 1;
            let l = layout(&gettext_f("Game {}", &[&game.to_string()]));
            cr.set_source_rgba(r, g, b, 0.7);
            cr.move_to(x + 3.0, geo.top + geo.height + 4.0);
            pangocairo::functions::show_layout(cr, &l);
            let _ = n;
        }
        // The axis' name.
        let axis = if data.money {
            gettext_f("Equity of {}", &[&imp.player.borrow()])
        } else {
            gettext_f("Match winning chance of {}", &[&imp.player.borrow()])
        };
        let l = layout(&axis);
        cr.set_source_rgba(r, g, b, 0.7);
        cr.move_to(geo.left + 4.0, 0.0);
        pangocairo::functions::show_layout(cr, &l);
        if data.points.is_empty() {
            return;
        }
        // The current action.
        if let Some(i) = imp.current.get() {
            let x = snap(geo.x(i));
            cr.set_source_rgba(0.21, 0.52, 0.89, 0.35);
            cr.set_line_width(3.0);
            cr.move_to(x, geo.top);
            cr.line_to(x, geo.top + geo.height);
            let _ = cr.stroke();
            cr.set_line_width(1.0 / scale);
        }
        // The line, game by game.
        cr.set_source_rgb(0.21, 0.52, 0.89);
        cr.set_line_width(2.0);
        cr.set_line_join(cairo::LineJoin::Round);
        for (k, &start) in data.game_starts.iter().enumerate() {
            let end = data
                .game_starts
                .get(k + 1)
                .copied()
                .unwrap_or(data.points.len());
            for i in start..end {
                let (x, y) = (geo.x(i), geo.y(data.points[i].value));
                if i == start {
                    cr.move_to(x, y);
                } else {
                    cr.line_to(x, y);
                }
            }
            let _ = cr.stroke();
        }
        // The marks.
        for (i, p) in data.points.iter().enumerate() {
            let Some((mr, mg, mb)) = mark_colour(p.skill) else {
                continue;
            };
            let radius = match p.skill {
                Skill::VeryBad => 6.0,
                Skill::Bad => 5.0,
                _ => 4.0,
            };
            cr.arc(geo.x(i), geo.y(p.value), radius, 0.0, std::f64::consts::TAU);
            cr.set_source_rgb(mr, mg, mb);
            let _ = cr.fill();
        }
        // The current point, ringed.
        if let Some(i) = imp.current.get() {
            let p = &data.points[i];
            cr.set_line_width(2.0);
            cr.set_source_rgb(r, g, b);
            cr.arc(geo.x(i), geo.y(p.value), 7.0, 0.0, std::f64::consts::TAU);
            let _ = cr.stroke();
        }
    }
}
