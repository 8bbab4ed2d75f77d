//! Choosing the nets: the embedded defaults or `--nets DIR`.

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Result;
use cubeful_engine::eval::Nets;

/// The `--nets DIR` option shared by the commands that evaluate.
#[derive(clap::Args, Clone, Debug)]
pub struct NetsArg {
    /// Folder with contact.net, crashed.net and race.net to use instead of the embedded nets.
    #[arg(long, value_name = "DIR")]
    pub nets: Option<PathBuf>,
}

impl NetsArg {
    /// Loads the chosen nets.
    pub fn load(&self) -> Result<Arc<Nets>> {
        Ok(Arc::new(match &self.nets {
            Some(dir) => Nets::load_dir(dir)?,
            None => Nets::embedded(),
        }))
    }
}
