// Editing the mechanism half of the Project (no widgets): what kind of object
// an id names, fresh ids, adding and deleting parts, markers, joints, forces
// and motions (deleting takes what depends on them along), cylinder
// attachments, and the editable fields of each object in display units
// (poses in mm and degrees). The studio calls these inside Document::edit, so
// each change is one undoable step.
#pragma once

#include "model/mechanism_types.h"
#include "model/project.h"

#include <QString>
#include <QStringList>

#include <string>
#include <vector>

namespace pm::gui {

enum class ObjectKind { None, Part, Marker, Joint, Force, Motion, Component, FlexibleBody, Contact, Latch };
// "part", "marker", ... as the property editor names the kind ("" for None and Component).
QString kindName(ObjectKind kind);

// Markers are named "<part>.<marker>"; every other object by its id.
ObjectKind objectKind(const Project& p, const std::string& id);

PartDef* findPart(Mechanism& m, const std::string& id);
MarkerDef* findMarker(Mechanism& m, const std::string& ref);
const MarkerDef* findMarker(const Mechanism& m, const std::string& ref);
JointDef* findJoint(Mechanism& m, const std::string& id);
ForceDef* findForce(Mechanism& m, const std::string& id);
MotionDef* findMotion(Mechanism& m, const std::string& id);

// "" when `id` may name a new part, joint, force or motion; else why not
// (ids start with a letter, use letters, digits, '_' and '-', and are unique
// among parts, joints, forces, motions and components).
QString checkNewId(const Project& p, const std::string& id);
// "" when `id` may name a new marker of `part`.
QString checkNewMarkerId(const Mechanism& m, const std::string& part, const std::string& id);
// The first free "<stem>1", "<stem>2", ... (markers: within their part).
std::string freshObjectId(const Project& p, const std::string& stem);
std::string freshMarkerId(const PartDef& part, const std::string& stem = "m");

// Every marker as "<part>.<marker>", in model order.
QStringList markerRefs(const Mechanism& m);
// Joints a motion or a cylinder may drive: revolute, translational, cylindrical
// (a cylinder: translational and cylindrical only).
QStringList drivableJoints(const Mechanism& m, bool forCylinder);

// A cylinder of the circuit (a component whose type starts with "cylinder_").
bool isCylinder(const Component& c);
// A cylinder or a semi-rotary actuator: what may be attached to the mechanism.
bool isActuator(const Component& c);
// Its data.attach, or null when it is not attached.
nlohmann::json attachment(const Component& c);
// Writes data.attach = {barrel, rod} (markers "<part>.<marker>").
void setAttachment(Project& p, const std::string& cylinder, const std::string& barrel, const std::string& rod);
void clearAttachment(Project& p, const std::string& cylinder);

// Deletes a part (with its markers), marker, joint, force, motion, contact
// pair or latch, and what refers to it: joints, forces, contact pairs and
// latches on a deleted marker, motions and couplers on a deleted joint,
// cylinder attachments to either (the cylinder itself stays in the
// circuit, detached). Returns false for an unknown id.
bool removeMechanismObject(Project& p, const std::string& id);

// Renames a part, marker, joint, force, motion, contact pair or latch and
// every reference to it: markers "<part>.<marker>" in joints, forces,
// contact pairs, latches, cylinder attachments and
// display geometry; joints in motions, couplers and attachments; signal
// references "<id>.<channel>" in component inputs (and data.inputs of
// scripted controllers). A marker keeps its part: `newId` is "<marker>" or
// "<part>.<marker>". Returns "" on success (`*renamed` is then the new id or
// marker reference), else why not, naming the object; `p` is then unchanged.
QString renameObject(Project& p, const std::string& id, const std::string& newId, std::string* renamed = nullptr);

// One editable field of an object as the property editor shows it.
struct EditField {
  enum class Kind { Number, Choice, Flag, Text };
  std::string key;  // "mass", "position.x", "orientation.yaw", "type", "i", "param.stiffness", ...
  QString label;
  Kind kind = Kind::Number;
  QString unit;         // display unit ("mm", "deg", "kg", ...), "" for none
  QString value;        // in display units; Flag: "1" or "0"
  QStringList choices;  // Choice
  bool editable = true;
  QString tip;
};

// How a quantity of SI unit `si` is shown: its unit ("mm" for m, "mm/s",
// "deg", "N/mm", "N s/mm"; "" for a pure number) and the scale from SI.
struct ShownUnit {
  QString unit;
  double scale = 1.0;
};
ShownUnit shownUnitOf(const std::string& si);
// Declared parameters as fields "param.<name>" in their shown units (the
// doc as the tip, "(default)" when not set).
void appendParamFields(std::vector<EditField>& out, const MechTypeDecl& decl, const std::map<std::string, double>& params);
// A number typed into `field` (in its shown unit, which may follow it;
// "inf"): "" and `shown` set, else the reason naming `where`.
QString parseFieldNumber(const EditField& field, const QString& text, const QString& where, double& shown);
// Sets declared parameter `name` from a value typed into its field (shown
// units), within its declared range: "" or the reason naming `where`.
QString applyParamField(const MechTypeDecl& decl, std::map<std::string, double>& params, const std::string& name,
                        const EditField& field, const QString& text, const QString& where);

// The fields of a part, marker, joint, force, motion, flexible body,
// contact pair or latch (empty for others).
std::vector<EditField> editFields(const Project& p, const std::string& id);
// Applies what the user typed into field `key` of object `id` (display units;
// a trailing unit equal to the shown one is accepted). Key "id" renames the
// object (renameObject). Returns "" on success, else a message naming the
// object and field; `p` is then unchanged.
//
// A part's display geometry shows as fields "geometry.<n>.<what>" (n from 0):
// shape (box, cylinder, sphere, link, mesh), its sizes in mm (box lx ly lz,
// cylinder radius length, sphere radius, link width), marker / marker2,
// colour "#rrggbb", mesh file and scale; "geometry.add" with a shape name
// appends one, shape "(remove)" deletes one. `projectFile` locates mesh
// files (a part's mass properties from a mesh).
QString applyField(Project& p, const std::string& id, const std::string& key, const QString& text,
                   const std::string& projectFile = {});

}  // namespace pm::gui
