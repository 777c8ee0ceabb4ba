//! Which panels a run has, in order: one list for the command line's figure
//! (`nhlab run --plot`) and the page's canvases. Each front end draws them its own
//! way (the page one canvas a panel with its words in the reader's language, the
//! figure a grid of panels in English); what a run gets, and in which order, is said
//! here once.

/// What a panel shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum PanelKind {
    /// The system drawn at the clock, one copy per method (the page's).
    Scene,
    /// `view.trajectory`, the current positions marked.
    Trajectory,
    /// `view.series[i]` against t.
    Series(usize),
    /// The largest constraint residual as written (`φ` for holonomic constraints),
    /// and dashed the largest velocity-level residual of the holonomic ones; log scale.
    Residual,
    /// Each contact's normal force `N`.
    ContactNormal,
    /// Each contact's needed friction `|F_t|/N`, and its `μ` dashed.
    ContactFriction,
    /// The energy (`T + V`, or `h`) minus its initial value, log scale.
    Energy,
    /// Hamel's E-vector: its norm (and, on the page, its components dashed).
    EVector,
    /// Gauss's compulsion of each method's accelerations, log scale.
    Compulsion,
}

/// What a run has to show: it decides which panels there are.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RunContents {
    /// A scene to draw (the page; a figure has none).
    pub scene: bool,
    /// `view.series`, a panel each.
    pub series: usize,
    /// Constraints, whose residuals are plotted.
    pub constraints: bool,
    /// A contact whose normal force the model determines.
    pub normal_forces: bool,
    /// A contact whose tangential force it determines too (its needed friction).
    pub friction: bool,
    /// A Hamel split: the E-vector.
    pub e_vector: bool,
    /// Gauss's compulsion recorded (the command line's runs; the page's rows do not
    /// carry it).
    pub compulsion: bool,
}

/// The panels of a run with `contents`, in order: the scene, the trajectory, the
/// series, the residuals, the contact forces, the energy, the E-vector, the compulsion.
pub fn run_panels(contents: &RunContents) -> Vec<PanelKind> {
    let c = contents;
    let mut out = Vec::new();
    out.extend(c.scene.then_some(PanelKind::Scene));
    out.push(PanelKind::Trajectory);
    out.extend((0..c.series).map(PanelKind::Series));
    out.extend(c.constraints.then_some(PanelKind::Residual));
    out.extend(c.normal_forces.then_some(PanelKind::ContactNormal));
    out.extend(c.friction.then_some(PanelKind::ContactFriction));
    out.push(PanelKind::Energy);
    out.extend(c.e_vector.then_some(PanelKind::EVector));
    out.extend(c.compulsion.then_some(PanelKind::Compulsion));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_gets_its_panels_in_one_order() {
        let all = RunContents {
            scene: true,
            series: 2,
            constraints: true,
            normal_forces: true,
            friction: true,
            e_vector: true,
            compulsion: true,
        };
        use PanelKind::*;
        assert_eq!(
            run_panels(&all),
            [
                Scene,
                Trajectory,
                Series(0),
                Series(1),
                Residual,
                ContactNormal,
                ContactFriction,
                Energy,
                EVector,
                Compulsion
            ]
        );
        // Nothing to show but the motion: its path and its energy.
        assert_eq!(run_panels(&RunContents::default()), [Trajectory, Energy]);
    }
}
