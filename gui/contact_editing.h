// Contact pairs and latches in the studio (issue 27), without widgets: the
// contact shapes a part's display geometry offers, the fields the mechanism
// form shows for a pair or a latch (display units), and applying a typed
// value, checked as a run checks it (engine::checkContact, checkLatch: the
// core's messages). mechanism_editing.h routes the form's calls here for
// ObjectKind::Contact and ObjectKind::Latch.
#pragma once

#include "mechanism_editing.h"
#include "engine/engine.h"
#include "model/project.h"

#include <QString>

#include <map>
#include <string>
#include <vector>

namespace pm::gui {

ContactDef* findContact(Mechanism& m, const std::string& id);
LatchDef* findLatch(Mechanism& m, const std::string& id);

// A contact shape a part offers: one per display shape the core can collide
// (box, sphere; cylinder and tube as a cylinder; link as a capsule), then a
// plane at each of the part's markers. A contact shape is centred on its
// marker (a plane: the marker's xy-plane, z out of the solid), so a display
// shape that is not (a cylinder starts at its marker, a link runs between
// two, a shape without a marker sits at the part frame) needs a marker at
// `at` (pose in the part frame) of its own.
// After those, every other shape the core has (engine::contactShapes) at
// the core's default sizes for the part's drawing (contactSizeBasis) for
// the user to type, at the part frame or a marker chosen.
struct ContactShapeOption {
  QString label;          // "box 50 x 50 x 20 mm at base", "plane at floor (its xy-plane)"
  ContactShapeDef shape;  // sizes [m]; marker "<part>.<marker>" when one is there already
  MarkerDef at;           // the marker's pose in the part frame
  bool drawn = true;      // false: not a display shape, default sizes at the part frame
  QString place;          // the label's end: "at base", "along the link a - b", "at a marker"
  QString origin;         // what its sizes are, in the label's brackets: "the section's size" ("": drawn)
};
// An option's label with sizes `size` [m]: "sphere r 20 mm at c"; with
// `typed`, "sphere r 25 mm (typed) at c" (the sizes the user typed, not
// the drawn ones). A plane's, or a shape's not drawn (its sizes typed
// below), is its label as it is.
QString contactShapeLabel(const ContactShapeOption& o, const std::map<std::string, double>& size, bool typed = false);
std::vector<ContactShapeOption> contactShapeOptions(const Mechanism& m, const std::string& part);
// The shapes a flexible body offers on one of its markers (it has no display
// geometry; the marker is the caller's choice, so shape.marker is empty): a
// sphere as thick as its section, a box of one element's length and its
// section (x along the beam), a plane; sizes by the core's rules.
std::vector<ContactShapeOption> flexibleShapeOptions(const Mechanism& m, const std::string& body);
// What a new shape's sizes on `body` are made from (the core's rules,
// engine::contactDefaultSizes): a part's drawing's bounding box in the
// part frame (its boxes, spheres, cylinders, tubes and links; zero without
// one), a flexible body's element length and section.
engine::ContactSizeBasis contactSizeBasis(const Mechanism& m, const std::string& body);
// The markers a part or a flexible body has (their ids, without the body's).
QStringList bodyMarkers(const Mechanism& m, const std::string& body);
// The option's shape on `m`'s part (or flexible body): at `marker` when one
// is given (an id of the body's: the shape sits in its axes); else at the
// option's marker, or at a marker of the part already at that pose, or at a
// new marker "contact1", ... added to the part.
ContactShapeDef placeContactShape(Mechanism& m, const std::string& part, const ContactShapeOption& option,
                                  const std::string& marker = {});

// A part that cannot move: the ground, or a part welded to it by fixed
// joints (the only side a mesh may be on).
bool partCannotMove(const Mechanism& m, const std::string& part);
// A mesh shape read from `file` (relative to the project's folder `folder`,
// confined to it as the loader does; `scale` from file units to m), the
// file's axes those of `marker` (an id of the part's) or, without one, the
// part's frame (a marker there, or a new one): its file and scale as the
// file format writes them, its vertices and triangles as the loader fills
// them. "" or the reason, naming `side` ("i"/"j") and the field.
QString placeMeshShape(Mechanism& m, const std::string& part, const std::string& folder, const std::string& file,
                       double scale, const std::string& side, ContactShapeDef* out, const std::string& marker = {});

// "" when the pair (latch) passes the run's checks against `m`'s parts and
// markers, else the run's message naming the object and the field.
QString checkContactPair(const Mechanism& m, const ContactDef& pair);
QString checkLatchDef(const Mechanism& m, const LatchDef& latch);

// The sizes shape `s` takes as the core declares them (engine::contactShapeDecl,
// lengths in m), as fields "<side>.size.<name>" in the shown length unit
// (mm), valued from `s`, each with the core's description of what it
// measures and how a new one is made as its tip.
std::vector<EditField> contactSizeFields(const std::string& side, const ContactShapeDef& s);
// A length typed into one of those fields (its unit may follow) set in `s`
// in SI: "" or the reason naming `where`: not a number, or not a finite
// size > 0 (refused, never clamped).
QString applyContactSize(ContactShapeDef& s, const EditField& f, const QString& text, const QString& where);

// The form's fields: id; i and j markers, shapes and sizes (mm); the
// parameters in display units. Latch: id, joint type, markers, capture
// radius (mm), engaged at the start, engage and release signals.
std::vector<EditField> contactFields(const Project& p, const ContactDef& pair);
std::vector<EditField> latchFields(const Project& p, const LatchDef& latch);
// Applies a typed value (display units; a trailing shown unit is accepted);
// "" on success, else the reason naming the object and field (`p` is then
// unchanged). Key "id" renames (renameObject).
QString applyContactField(Project& p, const std::string& id, const std::string& key, const QString& text);
QString applyLatchField(Project& p, const std::string& id, const std::string& key, const QString& text);

}  // namespace pm::gui
