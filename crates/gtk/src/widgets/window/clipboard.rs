//! Copying the position on the board to the clipboard — as GNU Backgammon's ASCII board
//! (`win.copy-position-text`, Ctrl+C) and as a PNG image (`win.copy-position-image`,
//! Ctrl+Shift+C) — and
//! exporting it as a PNG or SVG file (`win.export-position`).
//!
//! The text is the engine's ([`crate::controller::Controller::position_text`]); the images are
//! drawn by [`crate::board::export`] with the board's own Cairo code, in the colours on screen.
//! Ctrl+C and Ctrl+Shift+C are shortcuts of the window's bubble phase, not application
//! accelerators (those come first): a text field with the focus (the ID bar's) copies its own
//! selection with Ctrl+C.

use std::path::{Path, PathBuf};

use adw::prelude::*;
use adw::subclass::prelude::*;
use gtk::{gdk, gio, glib};

use super::CubefulWindow;
use crate::board::export::{self, ImageFormat};
use crate::i18n::{gettext, gettext_f};

impl CubefulWindow {
    /// Sets up the actions and Ctrl+C.
    pub(super) fn clipboard_setup(&self) {
        self.add_plain_actions(&[
            ("copy-position-text", |w| w.copy_position_text()),
            ("copy-position-image", |w| w.copy_position_image()),
            ("export-position", |w| w.choose_position_export()),
        ]);

        // Ctrl+C once the widget with the focus has passed on it: an entry copies its
        // selection instead.
        let shortcuts = gtk::ShortcutController::new();
        shortcuts.set_propagation_phase(gtk::PropagationPhase::Bubble);
        for (trigger, action) in [
            ("<Control>c", "win.copy-position-text"),
            ("<Control><Shift>c", "win.copy-position-image"),
        ] {
            shortcuts.add_shortcut(gtk::Shortcut::new(
                gtk::ShortcutTrigger::parse_string(trigger),
                Some(gtk::NamedAction::new(action)),
            ));
        }
        self.add_controller(shortcuts);
    }

    /// Puts GNU Backgammon's ASCII board of the position shown on the clipboard.
    pub fn copy_position_text(&self) {
        let text = self.imp().controller.borrow().position_text();
        match text {
            Some(text) => {
                self.clipboard().set_text(&text);
                self.toast(&gettext("Position copied as text."));
            }
            None => self.toast(&gettext("There is no position to copy.")),
        }
    }

    /// Puts a PNG image of the board on the clipboard.
    pub fn copy_position_image(&self) {
        let Some(bytes) = self.position_image(ImageFormat::Png, export::CLIPBOARD_WIDTH) else {
            return;
        };
        match gdk::Texture::from_bytes(&glib::Bytes::from_owned(bytes)) {
            Ok(texture) => {
                self.clipboard().set_texture(&texture);
                self.toast(&gettext("Position copied as an image."));
            }
            Err(e) => {
                glib::g_warning!("cubeful", "copy as image: {e}");
                self.toast(&gettext("The board could not be drawn as an image."));
            }
        }
    }

    /// The board as shown (the position, without the prompts) as `format`, `width` wide;
    /// `None`, with the reason told, when there is no match or it could not be drawn.
    fn position_image(&self, format: ImageFormat, width: u32) -> Option<Vec<u8>> {
        let display = {
            let c = self.imp().controller.borrow();
            c.session().map(|_| c.display())
        };
        let Some(display) = display else {
            self.toast(&gettext("There is no position to copy."));
            return None;
        };
        match export::image(format, &display, self.board_colours(), width) {
            Ok(bytes) => Some(bytes),
            Err(e) => {
                glib::g_warning!("cubeful", "board image: {e}");
                self.toast(&gettext("The board could not be drawn as an image."));
                None
            }
        }
    }

    /// Asks where to export the position (PNG, or SVG when the name ends in `.svg`).
    fn choose_position_export(&self) {
        if self.imp().controller.borrow().session().is_none() {
            self.toast(&gettext("There is no position to export."));
            return;
        }
        let chooser = gtk::FileChooserNative::new(
            Some(&gettext("Export Position")),
            Some(self),
            gtk::FileChooserAction::Save,
            Some(&gettext("_Save")),
            Some(&gettext("_Cancel")),
        );
        chooser.set_current_name("position.png");
        for (name, pattern) in [
            (gettext("PNG image"), "*.png"),
            (gettext("SVG image"), "*.svg"),
        ] {
            let filter = gtk::FileFilter::new();
            filter.set_name(Some(&name));
            filter.add_pattern(pattern);
            chooser.add_filter(&filter);
        }
        let folder = self
            .settings()
            .last_folder
            .filter(|f| f.is_dir())
            .or_else(|| {
                glib::user_special_dir(glib::UserDirectory::Pictures).filter(|f| f.is_dir())
            })
            .unwrap_or_else(glib::home_dir);
        let _ = chooser.set_current_folder(Some(&gio::File::for_path(folder)));
        chooser.connect_response(glib::clone!(
            #[weak(rename_to = window)]
            self,
            move |chooser, response| {
                let path = (response == gtk::ResponseType::Accept)
                    .then(|| chooser.file().and_then(|f| f.path()))
                    .flatten();
                // Which filter was chosen decides the format of a name without one.
                let svg_filter = chooser
                    .filter()
                    .and_then(|f| f.name())
                    .is_some_and(|n| n.as_str() == gettext("SVG image"));
                window.imp().files.borrow_mut().chooser = None;
                if let Some(path) = path {
                    let default = if svg_filter {
                        ImageFormat::Svg
                    } else {
                        ImageFormat::Png
                    };
                    window.export_position(&image_path(&path, default));
                }
                window.write_debug_state();
            }
        ));
        chooser.set_modal(true);
        chooser.show();
        self.imp().files.borrow_mut().chooser = Some(chooser);
        self.write_debug_state();
    }

    /// Writes the board to `path` as PNG or SVG (by its extension; PNG otherwise), replacing
    /// any file there only once the image is complete. True if written.
    pub fn export_position(&self, path: &Path) -> bool {
        let format = ImageFormat::from_path(path).unwrap_or(ImageFormat::Png);
        let Some(bytes) = self.position_image(format, export::EXPORT_WIDTH) else {
            return false;
        };
        if let Err(e) = cubeful_engine::files::write_atomically(path, &bytes) {
            self.toast(&gettext_f(
                "The image could not be written, and any earlier file is unchanged ({}).",
                &[&e.to_string()],
            ));
            return false;
        }
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        self.toast(&gettext_f("Position exported to “{}”.", &[&name]));
        if let Some(folder) = path.parent().map(Path::to_path_buf) {
            if let Some(app) = self.app() {
                app.update_settings(|s| s.last_folder = Some(folder));
            }
        }
        true
    }
}

/// `path` with the extension of `default` added unless it names PNG or SVG already.
fn image_path(path: &Path, default: ImageFormat) -> PathBuf {
    if ImageFormat::from_path(path).is_some() {
        return path.to_path_buf();
    }
    let mut name = path.as_os_str().to_owned();
    name.push(".");
    name.push(default.extension());
    PathBuf::from(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_without_an_image_extension_gets_one() {
        assert_eq!(
            image_path(Path::new("/tmp/board"), ImageFormat::Png),
            PathBuf::from("/tmp/board.png")
        );
        assert_eq!(
            image_path(Path::new("/tmp/board.v2"), ImageFormat::Svg),
            PathBuf::from("/tmp/board.v2.svg")
        );
        assert_eq!(
            image_path(Path::new("/tmp/board.SVG"), ImageFormat::Png),
            PathBuf::from("/tmp/board.SVG")
        );
    }
}
