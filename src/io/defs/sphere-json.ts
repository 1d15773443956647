/** The scene JSON form of the sphere (docs/FORMATS.md): its definition's form plus a `center`. */
import { placedSceneForm, registerSceneForm } from "../scene-forms.js";

registerSceneForm(placedSceneForm("sphere", "sphere", "center", false));
