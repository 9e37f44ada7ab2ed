import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Paths;
import org.nnapimlir.Model;
import org.nnapimlir.NnapiException;
import org.nnapimlir.NnapiRuntime;
import org.nnapimlir.PartitionInfo;
import org.nnapimlir.TensorInfo;

/**
 * Runs a compiled model on one input file (the raw bytes of its first
 * input) and writes its first output's raw bytes:
 *
 *   java -cp nnapi-mlir.jar:. -Djava.library.path=PREFIX/lib \
 *       RunModel libmodel.so input.bin output.bin
 */
public class RunModel {
  public static void main(String[] args) throws Exception {
    if (args.length != 3) {
      System.err.println("usage: RunModel MODEL.so INPUT.bin OUTPUT.bin");
      System.exit(2);
    }
    try (Model model = Model.open(args[0])) {
      TensorInfo in = model.inputs()[0], out = model.outputs()[0];
      System.out.println("input " + in + ", output " + out);
      byte[] bytes = Files.readAllBytes(Paths.get(args[1]));
      ByteBuffer input = ByteBuffer.allocateDirect(bytes.length)
                             .order(ByteOrder.nativeOrder());
      input.put(bytes).flip();
      ByteBuffer output = ByteBuffer.allocateDirect((int) out.byteSize())
                              .order(ByteOrder.nativeOrder());
      model.run(new ByteBuffer[] {input}, new ByteBuffer[] {output});
      byte[] result = new byte[output.remaining()];
      output.get(result);
      Files.write(Paths.get(args[2]), result);
      for (PartitionInfo p : NnapiRuntime.partitions())
        System.out.println(p);
    } catch (NnapiException e) {
      System.err.println("error (status " + e.status() + "): " + e.getMessage());
      System.exit(1);
    }
  }
}
