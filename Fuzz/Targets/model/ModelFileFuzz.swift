import FuzzSupport
import SeedKit
import SeedKitModel

/// The model file reader on JSON text: it never crashes; every problem is located inside the file; a model it
/// accepts writes back to a file it reads as the same model, and makes a store: a model that validates never fails
/// later on a name the store cannot take.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzModelFile(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = input(data, size)
    guard let document = try? JSONDocument(parsing: bytes, file: "model.json") else { return 0 }
    let model: EntityModel
    do {
        model = try EntityModel(document: document)
    } catch let errors as ModelErrors {
        invariant(!errors.errors.isEmpty, "a model refused without a problem")
        for error in errors.errors {
            guard let location = error.location else {
                invariant(false, "a model file's problem has no location: \(error)")
                return 0
            }
            checkLocation(location, in: bytes, file: "model.json", "model error \(error)")
        }
        return 0
    } catch {
        invariant(false, "a model file's problem of another type: \(error)")
        return 0
    }
    do {
        let written = model.json.serialized(style: .pretty)
        let reread = try EntityModel(document: JSONDocument(parsing: written, file: "written.json"))
        invariant(reread == model, "the model's file reads back as another model")
        invariant(reread.json.serialized(style: .pretty) == written, "the model's file is not a fixed point")
    } catch {
        invariant(false, "the model's own file is refused: \(error)")
    }
    do {
        _ = try SQLiteStore.inMemory(model: model)
    } catch {
        invariant(false, "a valid model makes no store: \(error)")
    }
    return 0
}
