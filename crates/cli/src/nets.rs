//! Choosing the nets: the embedded defaults or `--nets DIR`.

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Result;
use cubeful_engine::eval::bearoff::BearoffDb;
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

/// The nets plus the bearoff databases: what the analysing commands (`eval`, `hint`) use.
#[derive(clap::Args, Clone, Debug)]
pub struct EngineArgs {
    #[command(flatten)]
    pub nets: NetsArg,
    /// Folder of the bearoff databases [default: $CUBEFUL_BEAROFF_DIR, else the user cache
    /// folder]; they are generated there on first use.
    #[arg(long, value_name = "DIR")]
    pub bearoff_dir: Option<PathBuf>,
    /// Judge bearoffs with the nets instead of the bearoff databases.
    #[arg(long)]
    pub no_bearoff: bool,
}

impl EngineArgs {
    /// A searcher with the chosen nets and, unless turned off, the bearoff databases.
    pub fn search(&self) -> Result<cubeful_engine::search::Search> {
        let mut search = cubeful_engine::search::Search::new(self.nets.load()?);
        search.set_bearoff(self.bearoff()?);
        Ok(search)
    }

    /// The bearoff databases (loaded, or generated on first use), unless turned off.
    pub fn bearoff(&self) -> Result<Option<Arc<BearoffDb>>> {
        if self.no_bearoff {
            return Ok(None);
        }
        let dir = crate::bearoff::DirArg {
            dir: self.bearoff_dir.clone(),
        };
        Ok(Some(Arc::new(dir.open()?)))
    }
}
