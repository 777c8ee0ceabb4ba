//! What the worker tells the page of a loaded scenario, once, before any row: the
//! plots' labels and panels, the runs, the scene's elements, and so the shape of
//! the rows that follow ([`Layout::row_format`]).

use crate::i18n::tr;
use crate::rows::RowFormat;

/// What the page needs to know of a loaded scenario to lay out and label its plots.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Layout {
    /// Start of the runs.
    pub t0: f64,
    /// End of the runs.
    pub t_end: f64,
    /// The view's labels: trajectory x, trajectory y, then each series.
    pub view_labels: Vec<String>,
    /// The same with units where `[units]` gives them (`x [m]`), for the axes.
    pub axis_labels: Vec<String>,
    /// The time axis's label (`t`, or `t [s]` when the scenario has units).
    pub time_label: String,
    /// The coordinates' names.
    pub coordinates: Vec<String>,
    /// Names of the E-vector's components (empty without a Hamel split).
    pub e_components: Vec<String>,
    /// Whether there are constraints, and whether some are holonomic.
    pub constraints: bool,
    /// Whether some constraint is holonomic (its velocity residual is plotted).
    pub any_holonomic: bool,
    /// The runs' methods (ids), in order.
    pub methods: Vec<String>,
    /// The runs' parameter sets, in the same order: 0 the scenario's values, `k` the
    /// `k`-th of `[compare]` (empty: all 0).
    #[serde(default)]
    pub sets: Vec<usize>,
    /// The labels of `[compare]`'s sets (`heavy: m = 3`), in order.
    #[serde(default)]
    pub set_labels: Vec<String>,
    /// The runs' integrators, in the same order, by their place in
    /// `integrator_labels` (empty: all the first).
    #[serde(default)]
    pub integrators: Vec<usize>,
    /// The integrators' ids when the scenario overlays several
    /// (`[run] integrators`); empty otherwise.
    #[serde(default)]
    pub integrator_labels: Vec<String>,
    /// Why the recorded energy may change along the true motion (empty: it is conserved).
    pub energy_changes: Vec<String>,
    /// Whether the recorded energy is the energy function `h = T₂ − T₀ + V`
    /// (`T` not quadratic in the velocities) rather than `T + V`.
    #[serde(default)]
    pub energy_function: bool,
    /// The panels, in page order.
    pub panels: Vec<PanelInfo>,
    /// The scene: its elements' labels, `plane` or `space`, and how many elements
    /// leave a trail (their coordinates follow the view's in each row); `None`
    /// when the scenario draws nothing.
    pub scene: Option<SceneLayout>,
    /// The `[[rolling]]` contacts (their forces follow E's components in each row).
    #[serde(default)]
    pub contacts: Vec<ContactLayout>,
}

/// A contact as the plots name it.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct ContactLayout {
    /// Its name (`disk rolls on ground`).
    pub name: String,
    /// Whether it declares a friction coefficient (drawn as a line).
    pub friction: bool,
    /// Whether the model determines its normal force, and its friction (`nhlab
    /// check` says why not): a panel is drawn for what some contact has.
    #[serde(default)]
    pub determined: [bool; 2],
}

/// What the page knows of a scene before any picture arrives.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct SceneLayout {
    /// Every element's label, in element order.
    pub labels: Vec<String>,
    /// `plane` or `space`.
    pub projection: String,
    /// How many elements leave a trail.
    pub trails: usize,
    /// How many of the last labels are contact-force arrows (shown or hidden by the
    /// page's "forces" switch).
    #[serde(default)]
    pub forces: usize,
}

/// What a panel shows: the kinds both front ends share (`nhlab_plots::run_panels`
/// says which a run has).
pub use nhlab_plots::PanelKind as Kind;

/// A panel of the page: the canvas id the page creates, and what it shows.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct PanelInfo {
    /// The canvas element's id.
    pub id: String,
    /// Its heading.
    pub title: String,
    /// One sentence under the heading: how to read it.
    pub note: String,
    /// How to handle it with a mouse or the keys, when it takes them (shown after the
    /// note on screen, left out in print).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub handling: String,
    /// What it shows.
    pub kind: Kind,
}

impl Layout {
    /// The rows the worker sends for this layout.
    pub fn row_format(&self) -> RowFormat {
        RowFormat { outputs: self.outputs(), e_components: self.e_components.len(), contacts: self.contacts.len() }
    }

    /// Numbers per flat row.
    pub fn row_width(&self) -> usize {
        self.row_format().width()
    }

    /// Numbers per sample after the fixed ones: the view's outputs and the trails'.
    pub fn outputs(&self) -> usize {
        self.view_labels.len() + 3 * self.scene.as_ref().map_or(0, |s| s.trails)
    }
}

/// The panels of a scenario, in page order (the layout's own `panels` aside), their
/// words in the page's language ([`tr`]).
pub fn panels(layout: &Layout) -> Vec<PanelInfo> {
    let labels = &layout.view_labels;
    let contents = nhlab_plots::RunContents {
        scene: layout.scene.is_some(),
        series: labels.len().saturating_sub(2),
        constraints: layout.constraints,
        normal_forces: layout.contacts.iter().any(|c| c.determined[0]),
        friction: layout.contacts.iter().any(|c| c.determined == [true, true]),
        e_vector: !layout.e_components.is_empty(),
        // The page's rows do not carry it (the command line's figure draws it).
        compulsion: false,
    };
    let mut out = Vec::new();
    for kind in nhlab_plots::run_panels(&contents) {
        let (title, note) = match kind {
            Kind::Scene => {
                let forces = match &layout.scene {
                    Some(scene) if scene.forces > 0 => tr("panel.scene.forces", &[]),
                    _ => String::new(),
                };
                (tr("panel.scene.title", &[]), tr("panel.scene.note", &[("forces", &forces)]))
            }
            Kind::Trajectory => (
                tr("panel.trajectory.title", &[("y", &labels[1]), ("x", &labels[0])]),
                tr("panel.trajectory.note", &[]),
            ),
            Kind::Series(i) => (tr("panel.series.title", &[("label", &labels[2 + i])]), String::new()),
            Kind::Residual => {
                let note = if layout.any_holonomic { "panel.residual.note.holonomic" } else { "panel.residual.note" };
                (tr("panel.residual.title", &[]), tr(note, &[]))
            }
            Kind::ContactNormal => {
                let names: Vec<String> = layout.contacts.iter().map(|c| crate::i18n::name(&c.name)).collect();
                let which = if names.len() == 1 {
                    String::new()
                } else {
                    tr("panel.normal.which", &[("names", &names.join(&tr("list.separator", &[])))])
                };
                (tr("panel.normal.title", &[]), tr("panel.normal.note", &[("which", &which)]))
            }
            Kind::ContactFriction => (tr("panel.friction.title", &[]), tr("panel.friction.note", &[])),
            Kind::Energy => energy_caption(&layout.energy_changes, layout.energy_function),
            Kind::EVector => {
                let components = layout.e_components.len();
                let (names, dashed) = if components > MAX_E_COMPONENTS {
                    (
                        tr("panel.e.components", &[("count", &components)]),
                        tr("panel.e.dashed-largest", &[("count", &MAX_E_COMPONENTS)]),
                    )
                } else {
                    (layout.e_components.join(", "), tr("panel.e.dashed", &[]))
                };
                (tr("panel.e.title", &[("names", &names)]), tr("panel.e.note", &[("dashed", &dashed)]))
            }
            Kind::Compulsion => continue,
        };
        // How to handle the scene with a mouse or the keys: it turns in space, moves in the plane.
        let handling = match (&layout.scene, kind) {
            (Some(scene), Kind::Scene) => {
                tr(if scene.projection == "space" { "panel.scene.turn" } else { "panel.scene.move" }, &[])
            }
            _ => String::new(),
        };
        out.push(PanelInfo { id: panel_id(kind), title, note, handling, kind });
    }
    out
}

/// The canvas id of a panel of `kind`.
fn panel_id(kind: Kind) -> String {
    match kind {
        Kind::Scene => "plot-scene".into(),
        Kind::Trajectory => "plot-trajectory".into(),
        Kind::Series(i) => format!("plot-series-{i}"),
        Kind::Residual => "plot-residual".into(),
        Kind::ContactNormal => "plot-contact-normal".into(),
        Kind::ContactFriction => "plot-contact-friction".into(),
        Kind::Energy => "plot-energy".into(),
        Kind::EVector => "plot-e".into(),
        Kind::Compulsion => "plot-compulsion".into(),
    }
}

/// The energy panel's title and note: what the curve is (`T + V`, or the energy
/// function `h` where `T` is not quadratic in the velocities), and whether the true
/// motion conserves it here (then the curve is a method's error) or not (then it is
/// the energy's own change, and why).
pub fn energy_caption(changes: &[String], energy_function: bool) -> (String, String) {
    let note = |total: &str, function: &str, args: &[(&str, &dyn core::fmt::Display)]| {
        tr(if energy_function { function } else { total }, args)
    };
    if changes.is_empty() {
        (tr("panel.energy.drift.title", &[]), note("panel.energy.drift.note", "panel.energy.h-drift.note", &[]))
    } else {
        let why = changes.join(&tr("clause.separator", &[]));
        (
            tr("panel.energy.change.title", &[]),
            note("panel.energy.change.note", "panel.energy.h-change.note", &[("why", &why)]),
        )
    }
}

/// E's components drawn per run at most: dozens of dashed lines are unreadable and
/// would make a frame of a large model cost tens of milliseconds.
pub const MAX_E_COMPONENTS: usize = 6;
